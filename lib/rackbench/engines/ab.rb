# frozen_string_literal: true

module Rackbench
  module Engines
    # ApacheBench (apache2-utils), as the 2008 seeds ran it: `ab -c C -n N`, or
    # `ab -c C -t S` for a duration. HTTP/1.0; keep-alive (-k) unless keepalive: false.
    # Its report is parsed; percentiles come from its "served within" table (ms).
    class Ab < Base
      NAME = "ab"
      EXECUTABLE = "ab"

      def version = Executable.version([path, "-V"], /Version (\S+)/)

      def validate!(load)
        super
        raise ConfigError, "engine ab is closed loop only; use engine: native for a rate" if load.rate

        self
      end

      # ab sends one URL: headers, a method, and a body for POST or PUT; not ids or a mix.
      def unsupported(traffic)
        return nil if traffic.nil? || traffic.plain?
        return "a mix needs engine: native" if traffic.mix?

        request = traffic.requests.first
        return "engine ab sends one path; ids need engine: native or wrk" if request.paths.size > 1
        return nil if request.body.nil? || %w[POST PUT].include?(request.method)

        "engine ab sends a body with POST or PUT only; #{request.method} with a body needs engine: native or wrk"
      end

      def command(load, dir)
        argv = [path, "-r", "-c", load.concurrency.to_s, "-s", load.timeout_s.ceil.to_s]
        argv += request_args(load.traffic.requests.first, dir) if load.traffic
        argv << "-k" if load.keepalive
        argv += if load.requests
                  ["-n", load.requests.to_s]
                else
                  # -t alone caps the run at 50000 requests; raise the cap so the duration rules.
                  ["-t", load.duration_s.ceil.to_s, "-n", "100000000"]
                end
        argv << load.target.url
      end

      # -H for headers; a body from a file (-p for POST, -u for PUT) with its type (-T).
      def request_args(request, dir)
        type = request.headers.find { |k, _| k.casecmp?("content-type") }
        sent = request.headers.reject { |k, _| request.body && k.casecmp?("content-type") }
        args = sent.flat_map { |k, v| ["-H", "#{k}: #{v}"] }
        return args + (request.method == "GET" ? [] : ["-m", request.method]) unless request.body

        file = File.join(dir, "ab-body")
        File.binwrite(file, request.body)
        args + [request.method == "PUT" ? "-u" : "-p", file, "-T", type ? type.last : "text/plain"]
      end

      def parse(output, _load, argv)
        num = ->(re) { output[re, 1]&.to_f }
        complete = num.call(/^Complete requests:\s+(\d+)/)
        raise ServiceError.new("ab printed no report", log_tail: output.lines.last(10).join) unless complete

        duration_s = num.call(/^Time taken for tests:\s+([\d.]+)/)
        percentiles = output.scan(/^\s+(\d+)%\s+(\d+)/).to_h { |p, ms| [p.to_i, ms.to_i * 1000] }
        failed = output[/\(Connect: (\d+), Receive: (\d+), Length: (\d+), Exceptions: (\d+)\)/] &&
                 Regexp.last_match.captures.map(&:to_i)
        connect, receive, length, exceptions = failed || [0, 0, 0, 0]
        non2xx = num.call(/^Non-2xx responses:\s+(\d+)/).to_i
        mean_ms = num.call(/^Time per request:\s+([\d.]+) \[ms\] \(mean\)$/)
        Result.new(
          engine: NAME, requests: complete.to_i, duration_s: duration_s,
          requests_per_s: num.call(/^Requests per second:\s+([\d.]+)/),
          bytes: num.call(/^Total transferred:\s+(\d+)/).to_i,
          latency_us: { "mean" => mean_ms && (mean_ms * 1000).round(1), "p50" => percentiles[50],
                        "p90" => percentiles[90], "p99" => percentiles[99], "max" => percentiles[100] },
          errors: { "connect" => connect, "read" => receive + exceptions, "check" => length, "status" => non2xx },
          warnings: ["ab's latency percentiles have millisecond resolution"],
          command: argv, raw: output
        )
      end
    end

    register("ab", Ab)
  end
end
