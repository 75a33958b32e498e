# frozen_string_literal: true

require "json"
require "ipaddr"

module Rackbench
  module Engines
    # rackbench-load, the load engine in ext/rackbench_load (C, epoll), built by
    # `rake compile` (bin/setup runs it):
    #
    #   engine: native          # in a suite
    #   rackbench load http://127.0.0.1:9292/hello -c 100 -d 10s   # on its own
    #
    # Closed loop, or open loop at load.rate (load.arrivals uniform or poisson,
    # seeded by load.seed) with latency measured from each request's scheduled
    # send time. It targets Unix sockets, cuts the warm-up out of one
    # continuous run, counts a server's clean close as a reconnect, reports raw
    # latencies, a full histogram and a per-second series, and follows the
    # window's requests to their end (Result#window_requests: those without a
    # response are censored at their age). It holds every answer to the
    # load's AnswerRule (passed as --expect-status/--expect-body) and counts
    # the failures (errors "status" and "check"): Ruby does not judge them
    # again. Slow clients (load.slow_clients) are measured apart from the
    # full-speed ones (Result#fast_clients, #slow_clients).
    class Native < Base
      NAME = "native"
      EXECUTABLE = "rackbench-load"
      BINARY = File.join(ROOT, "ext", "rackbench_load", EXECUTABLE)
      # A request body larger than this goes to the engine in a file (--body-file): Linux takes at
      # most 128 KB in one argument, and the recorded command stays short.
      ARGV_BODY_MAX_BYTES = 64 * 1024

      # The binary built in the source tree, else one on PATH.
      def path
        File.executable?(BINARY) ? BINARY : super
      end

      def unavailable_reason
        return "#{EXECUTABLE} is not built: run `bundle exec rake compile` (bin/setup does)" unless available?

        stale = path == BINARY ? self.class.stale_sources(BINARY) : []
        return if stale.empty?

        "#{EXECUTABLE} is older than its sources (#{stale.first(3).join(", ")} changed since it was built): " \
          "run `bundle exec rake compile` (bin/setup does)"
      end

      # The C sources beside binary that changed after it was built (a pull
      # without bin/setup): such a binary's JSON may lack newer fields.
      def self.stale_sources(binary)
        built = File.mtime(binary)
        Dir[File.join(File.dirname(binary), "*.{c,h}")].select { |f| File.mtime(f) > built }.map { |f| File.basename(f) }.sort
      end

      def version = Executable.version([path, "--version"], /rackbench-load (\S+)/)

      def warmup_in_run? = true
      def supports_unix? = true
      def supports_slow_clients? = true
      def supports_start_at? = true
      def unsupported(_traffic) = nil

      def command(load, dir)
        argv = [path, "--json", "--connections", load.concurrency.to_s, "--threads", load.threads.to_s,
                "--timeout", seconds(load.timeout_s)]
        argv += ["--duration", seconds(load.duration_s)] if load.duration_s
        argv += ["--requests", load.requests.to_s] if load.requests
        argv += ["--warmup", seconds(load.warmup_s)] if load.warmup_s.to_f.positive?
        argv += ["--rate", load.rate.to_s] if load.rate
        argv += seed_args(load)
        argv += ["--header", "Connection: close"] unless load.keepalive
        argv << "--allow-remote" if remote?(load.target)
        argv << "--request-start" if load.request_start
        argv += ["--start-at", format("%.6f", load.start_at)] if load.start_at
        argv += slow_args(load.slow_clients)
        argv += spill_bodies(answer_args(load), dir)
        argv << load.target.url
      end

      # args with each --body over ARGV_BODY_MAX_BYTES written to a file in dir and passed as --body-file.
      def spill_bodies(args, dir)
        return args unless dir

        out = []
        rest = args.dup
        until rest.empty?
          arg = rest.shift
          next out << arg unless arg == "--body" && rest.first.bytesize > ARGV_BODY_MAX_BYTES

          path = File.join(dir, "body-#{out.count("--body-file") + 1}.bin")
          File.binwrite(path, rest.shift)
          out.push("--body-file", path)
        end
        out
      end

      # The traffic's requests, each with its answer check (the load's AnswerRule).
      def answer_args(load)
        rule = load.rule || AnswerRule.new
        load.traffic ? load.traffic.engine_args(rule.method(:engine_args)) : rule.engine_args(nil)
      end

      def slow_args(slow)
        return [] unless slow

        args = ["--slow-connections", slow.connections.to_s]
        args += ["--slow-send", slow.send_bytes_per_s.to_s] if slow.send_bytes_per_s
        args += ["--slow-read", slow.read_bytes_per_s.to_s] if slow.read_bytes_per_s
        args
      end

      # Poisson arrivals and random ids (ids_order: random) draw from --seed.
      def seed_args(load)
        arrivals = load.rate && load.arrivals ? ["--arrivals", load.arrivals] : []
        return arrivals if arrivals.empty? && load.traffic&.requests.to_a.none?(&:random_ids?)

        [*arrivals, "--seed", load.seed.to_s]
      end

      def parse(output, _load, argv)
        line = output.lines.find { |l| l.start_with?("{") }
        raise ServiceError.new("rackbench-load printed no JSON", log_tail: output.lines.last(10).join) unless line

        data = JSON.parse(line)
        Result.new(
          engine: NAME, requests: data.fetch("requests"), duration_s: data.fetch("duration_s").round(3),
          requests_per_s: data.fetch("requests_per_s").round(2), bytes: data.fetch("bytes"),
          latency_us: data.fetch("latency_us").transform_values { |v| v.is_a?(Float) ? v.round(1) : v },
          errors: data.fetch("errors").merge(unsent(data)), status_counts: data.fetch("status_counts"),
          reconnects: data.fetch("reconnects"), series: data.fetch("series"), histogram: data.fetch("histogram"),
          warnings: data.fetch("warnings"), command: argv, raw: output, endpoints: data["endpoints"],
          window_requests: data["window_requests"], schedule: schedule(data), **transfer(data)
        )
      rescue JSON::ParserError, KeyError => e
        raise ServiceError.new("rackbench-load printed unreadable JSON: #{e.message}", log_tail: output.lines.last(5).join)
      end

      private

      # Bytes written and bodies (as sent and decoded), the client groups, the warnings' codes, the
      # warm-up's responses, the engine's own CPU and how late it began after --start-at.
      def transfer(data)
        data.slice("sent_bytes", "body_bytes", "decoded_bytes", "gzip_responses", "clients", "warning_codes",
                   "warmup_requests", "client_cpu", "start_late_s")
            .transform_keys(&:to_sym)
      end

      # Open loop: requests due in the window that no connection was free to send.
      def unsent(data) = data["mode"] == "open" ? { "unsent" => data.fetch("unsent") } : {}

      def schedule(data)
        { "mode" => data["mode"], "target_rate_per_s" => data["target_rate_per_s"], "arrivals" => data["arrivals"],
          "seed" => data["seed"] }.compact
      end

      # "2.5s" for 2.5, without a float's noise.
      def seconds(value)
        value = value.to_f
        value == value.round ? "#{value.round}s" : "#{(value * 1000).round}ms"
      end

      def remote?(target)
        return false if target.unix? || target.host == "localhost"

        addr = IPAddr.new(target.host.delete_prefix("[").delete_suffix("]"))
        Target::LOOPBACK.none? { |net| net.include?(addr) }
      rescue IPAddr::InvalidAddressError
        true
      end
    end

    register("native", Native)
  end
end
