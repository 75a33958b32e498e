# frozen_string_literal: true

require "json"

require_relative "wrk/request"

module Rackbench
  module Engines
    # wrk (Debian's package): closed loop over keep-alive connections. A Lua
    # done() hook prints the summary and percentiles as one JSON line.
    # wrk counts a server's clean close as a read error (unicorn closes every
    # connection), and its latency mean includes synthetic samples; both are
    # reported as wrk measured them, with a warning.
    class Wrk < Base
      NAME = "wrk"
      EXECUTABLE = "wrk"
      JSON_MARK = "RACKBENCH_JSON "

      SCRIPT = <<~LUA.freeze
        done = function(summary, latency, requests)
          local e = summary.errors
          local p = {}
          for _, q in ipairs({50, 75, 90, 99, 99.9}) do
            p[#p + 1] = string.format('"%s":%d', tostring(q), latency:percentile(q))
          end
          io.write(string.format('#{JSON_MARK}{"requests":%d,"duration_us":%d,"bytes":%d,' ..
            '"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d},' ..
            '"latency":{"mean":%.1f,"stdev":%.1f,"min":%d,"max":%d,%s}}\\n',
            summary.requests, summary.duration, summary.bytes,
            e.connect, e.read, e.write, e.status, e.timeout,
            latency.mean, latency.stdev, latency.min, latency.max, table.concat(p, ",")))
        end
      LUA

      def version = Executable.version([path, "-v"], /wrk (\S+)/)

      # wrk sends methods, headers, bodies and ids (WrkRequest); a mix needs the native engine.
      def unsupported(traffic)
        traffic&.mix? ? "a mix needs engine: native" : nil
      end

      def validate!(load)
        super
        if load.requests && !load.duration_s
          raise ConfigError,
                "engine wrk runs for a duration; it cannot stop after a request count"
        end
        raise ConfigError, "engine wrk is closed loop only; use engine: native for a rate" if load.rate

        self
      end

      def command(load, dir)
        @closes = closes_connections?(load.target)
        script = File.join(dir, "wrk-json.lua")
        File.write(script, (load.traffic ? WrkRequest.lua(load.traffic.requests.first) : "") + SCRIPT)
        threads = [load.threads, load.concurrency].min
        [path, "--threads", threads.to_s, "--connections", load.concurrency.to_s,
         "--duration", "#{load.duration_s.ceil}s", "--timeout", "#{load.timeout_s.ceil}s",
         "--script", script, load.target.url]
      end

      def parse(output, _load, argv)
        line = output.lines.find { |l| l.start_with?(JSON_MARK) }
        raise ServiceError.new("wrk printed no summary", log_tail: output.lines.last(10).join) unless line

        data = JSON.parse(line.delete_prefix(JSON_MARK))
        duration_s = data["duration_us"] / 1e6
        lat = data["latency"]
        errors = data["errors"]
        warnings = []
        reconnects = 0
        if @closes && errors["read"].positive?
          # wrk counts the close after each complete response as a read error.
          reconnects = [errors["read"], data["requests"]].min
          errors["read"] -= reconnects
          warnings << "the server answers keep-alive requests with Connection: close; " \
                      "#{reconnects} of wrk's read errors were clean closes, counted as reconnects"
        end
        Result.new(
          engine: NAME, requests: data["requests"], duration_s: duration_s.round(3),
          requests_per_s: (data["requests"] / duration_s).round(2), bytes: data["bytes"],
          latency_us: { "mean" => lat["mean"].round(1), "stdev" => lat["stdev"].round(1), "min" => lat["min"],
                        "p50" => lat["50"], "p75" => lat["75"], "p90" => lat["90"], "p99" => lat["99"],
                        "p99_9" => lat["99.9"], "max" => lat["max"] },
          errors: errors, reconnects: reconnects, warnings: warnings, command: argv, raw: output
        )
      end

      private

      # Does the server close the connection after answering a keep-alive request?
      def closes_connections?(target)
        _status, headers, _body = Readiness.get(target, keepalive: true)
        headers["connection"].to_s.downcase == "close"
      rescue SystemCallError, IOError
        false
      end
    end

    register("wrk", Wrk)
  end
end
