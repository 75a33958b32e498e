# frozen_string_literal: true

require "json"
require "tmpdir"
require "fileutils"
require "time"

module Rackbench
  module CLI
    class Servers < Command
      # Tries each adapter for real: `rackbench servers --probe` starts every
      # server that can run here (default config, a hello app) and every proxy
      # (in front of two puma instances), asks for /hello 20 times, stops it,
      # and caches the outcome per adapter and version. `rackbench servers`
      # then shows "works" or "fails here" from the cache without starting
      # anything, so the listing stays fast.
      class Probe
        HELLO_APP = <<~RUBY
          # Ruby 2.6 syntax on purpose: JRuby 9.3 loads this too.
          run lambda { |env| [200, { "content-type" => "text/plain" }, [env["PATH_INFO"] == "/hello" ? "hello world" : "ok"]] }
        RUBY
        HELLO = Request.new("path" => "/hello", "expect_status" => 200, "expect_body" => "hello world")
        REQUESTS = 20
        READY_TIMEOUT_S = 120
        ATTEMPTS = 3

        def self.cache_path
          base = ENV["XDG_CACHE_HOME"] || File.join(Dir.home, ".cache")
          File.join(base, "rackbench", "servers-probe.json")
        end

        def initialize(cache_path: self.class.cache_path)
          @cache_path = cache_path
        end

        # {"kind/name" => {"version", "status" => "works"|"fails", "reason", "probed_at"}}
        def cache
          @cache ||= File.exist?(@cache_path) ? JSON.parse(File.read(@cache_path)) : {}
        rescue JSON::ParserError
          @cache = {}
        end

        # The cached outcome for klass, if it was probed at the version installed now.
        def outcome(kind, klass, name)
          entry = cache["#{kind}/#{name}"]
          entry if entry && entry["version"] == klass.version
        end

        def server(klass)
          record("server", klass, klass.server_name) { |dir| deploy(klass, { "server" => klass.server_name }, dir) }
        end

        def proxy(klass)
          record("proxy", klass, klass.proxy_name) do |dir|
            deploy(Rackbench::Servers.fetch("puma"),
                   { "server" => "puma", "threads" => 2, "instances" => [2, klass.max_backends].compact.min,
                     "proxy" => { "proxy" => klass.proxy_name } }, dir)
          end
        end

        private

        # Up to ATTEMPTS starts, stopping at the first that works: a server that
        # works only sometimes (puma on JRuby here) says so, with the failure.
        def record(kind, klass, name, &block)
          failures = []
          ATTEMPTS.times do
            failure = attempt(&block)
            break unless failure

            failures << failure
          end
          flaky = "#{failures.size + 1} starts, #{failures.size} failed: #{failures.last}"
          outcome = if failures.size == ATTEMPTS then { "status" => "fails", "reason" => failures.last }
                    elsif failures.any? then { "status" => "works", "flaky" => flaky }
                    else { "status" => "works" }
                    end
          cache["#{kind}/#{name}"] = outcome.merge("version" => klass.version, "probed_at" => Time.now.utc.iso8601)
          FileUtils.mkdir_p(File.dirname(@cache_path))
          File.write(@cache_path, JSON.pretty_generate(cache))
          cache["#{kind}/#{name}"]
        end

        # nil when the start served /hello, else why not.
        def attempt
          Dir.mktmpdir("rackbench-probe") do |dir|
            File.chmod(0o755, dir) # servers that drop privileges (Apache's www-data) must reach the app
            yield dir
            nil
          rescue Error, SystemCallError, IOError => e
            reason(e)
          end
        end

        def deploy(server_class, config, dir)
          app = File.join(dir, "app", "config.ru")
          FileUtils.mkdir_p(File.dirname(app))
          File.write(app, HELLO_APP)
          supervisor = Supervisor.new
          server = server_class.new(config).validate!
          trial = Trial.new(server, supervisor: supervisor, dir: dir, app: app, ready_timeout_s: READY_TIMEOUT_S)
          begin
            trial.start
            REQUESTS.times { trial.check!(HELLO) }
          ensure
            trial.stop
            supervisor.stop_all
          end
        end

        # The error and the last meaningful line its process logged, unless the
        # error (an ExitReason) has it already; without the log's path, as the
        # probe's folder is removed.
        def reason(error)
          message = error.message.sub(/; log: \S+\z/, "")
          tail = error.respond_to?(:log_tail) ? error.log_tail.to_s.lines.map(&:strip).reject(&:empty?) : []
          cause = tail.reverse.find { |l| l.match?(/error|exception|cannot|denied|refused|unrecognized/i) } || tail.last
          cause = nil if cause && message.include?(cause)
          [message, cause].compact.join(": ")[0, 400]
        end
      end
    end
  end
end
