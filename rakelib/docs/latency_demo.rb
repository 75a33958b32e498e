# frozen_string_literal: true

require "fileutils"
require "json"
require "open3"

module Rackbench
  module Docs
    # doc/tune.md's closed-loop and open-loop example: one puma thread on the
    # rack app's /sleep/50 (about 20 req/s at most), on a Unix socket, loaded
    # open loop at 80 req/s and closed loop at 4 connections by `rackbench
    # load`. `rake docs:runs:latency` runs it and stores both outputs in DIR
    # (#run); `rake docs:latency` renders them (#markdown). The puma started
    # here is stopped on every path (its process group, by pid).
    class LatencyDemo
      DIR = "tmp/docs-runs/latency"
      SOCKET = "#{DIR}/puma.sock".freeze
      URL = "unix:#{SOCKET}:/sleep/50".freeze
      SERVER = ["puma", "-t", "1:1", "-b", "unix://#{SOCKET}", "apps/rack/config.ru"].freeze
      # Closed loop first: the open-loop run leaves the server a queue to work off.
      COMMANDS = {
        "closed" => ["bin/rackbench", "load", URL, "-c", "4", "-d", "3s", "--warmup", "1s", "--timeout", "10s"],
        "open" => ["bin/rackbench", "load", URL, "-c", "64", "-d", "3s", "--warmup", "1s", "--rate", "80",
                   "--arrivals", "poisson", "--timeout", "10s"]
      }.freeze
      READY_S = 60

      def self.stored = JSON.parse(File.read(File.join(DIR, "outputs.json")))

      def run
        FileUtils.rm_rf(DIR)
        FileUtils.mkdir_p(DIR)
        pid = Process.spawn("bundle", "exec", *SERVER, out: File.join(DIR, "puma.log"), err: %i[child out], pgroup: true)
        wait_for_socket(pid)
        outputs = COMMANDS.to_h { |name, argv| [name, { "command" => argv.join(" "), "output" => capture(argv) }] }
        outputs["load_average"] = File.read("/proc/loadavg").split.first(3).join(" ")
        File.write(File.join(DIR, "outputs.json"), JSON.pretty_generate(outputs))
      ensure
        stop(pid) if pid
      end

      # The two outputs as doc/tune.md shows them, with the commands that printed them.
      def markdown(stored = self.class.stored)
        open, closed = stored.values_at("open", "closed")
        <<~MD
          One puma thread on the rack app's `/sleep/50` serves about 20 req/s (`#{SERVER.join(" ")}`, on the
          2-core machine shared with other work: load average #{stored["load_average"]} when it ran). Offered
          80 req/s open loop, `#{open["command"]}` printed, in part:

          ```
          #{excerpt(open["output"]).join("\n")}
          ```

          The completed responses alone (the left column, what a plain percentile reports) describe the lucky
          few. The same server in closed loop at 4 connections, `#{closed["command"]}`, never offered more than
          the server took:

          ```
          #{excerpt(closed["output"]).join("\n")}
          ```
        MD
      end

      private

      # The lines worth showing: how it loaded, the percentiles, the request count and the warnings.
      def excerpt(output)
        output.lines.map(&:rstrip).grep(/threads and|Latency Distribution|^\s+[\d.]+%|\(completed:|requests in|^WARNING/)
      end

      def capture(argv)
        out, err, status = Open3.capture3(*argv)
        raise "#{argv.join(" ")} failed (#{status.exitstatus}): #{err}" unless status.success?

        out
      end

      def wait_for_socket(pid)
        deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + READY_S
        until File.socket?(SOCKET)
          raise "puma did not open #{SOCKET} within #{READY_S} s (see #{DIR}/puma.log)" if Process.waitpid(pid, Process::WNOHANG)
          raise "puma did not open #{SOCKET} within #{READY_S} s" if Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline

          IO.select(nil, nil, nil, 0.1)
        end
      end

      def stop(pid)
        Process.kill("TERM", -pid)
        Process.wait(pid)
      rescue Errno::ESRCH, Errno::ECHILD
        nil
      end
    end
  end
end
