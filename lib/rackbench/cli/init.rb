# frozen_string_literal: true

require_relative "../init/detection"
require_relative "../init/boot"
require_relative "../init/starter"
require_relative "../init/suite_text"

module Rackbench
  module CLI
    # rackbench init [APP_DIR] [--env K=V]... [--path P]... [--output FILE] [--force] [--no-probe] [--results DIR]:
    # writes a commented starter suite (rackbench.yml) for the app in APP_DIR
    # (default: the current folder) after starting it once on each server its
    # bundle has, and says what it found, what it could not, and what to do.
    # The servers' logs go to RESULTS/init/APP/SERVER/.
    class Init < Command
      def initialize(argv, out, err)
        super
        @probe = true
        @force = false
        @output = nil
        @env = {}
        @paths = []
        @results = Store::Location.default
      end

      def call
        dir = parse
        detection = Rackbench::Init::Detection.new(dir)
        path = @output || File.join(detection.dir, "rackbench.yml")
        env_path = path.sub(/(\.ya?ml)?\z/, ".env")
        starter = starter_for(detection)
        [path, (env_path unless starter.env_parts.last.empty?)].compact.each do |file|
          raise ConfigError, "#{file} exists: pass --force to replace it, or --output FILE" if File.exist?(file) && !@force
        end
        @out.puts "rackbench init: #{detection.framework} app in #{dir}; servers in its bundle: " \
                  "#{starter.servers.empty? ? "none" : starter.servers.join(", ")}"
        starter.probe! if @probe
        File.write(path, Rackbench::Init::SuiteText.new(starter, env_file: File.basename(env_path)).to_s)
        write_env_file(starter, env_path)
        report(starter, path)
        0
      end

      private

      # The secrets the app needs (Starter#env_parts), in the env file the
      # suite names, readable by this user only.
      def write_env_file(starter, env_path)
        secret = starter.env_parts.last
        return if secret.empty?

        File.write(env_path, Suite::EnvFile.text(secret), perm: 0o600)
        File.chmod(0o600, env_path)
        @out.puts "wrote #{env_path} (#{secret.keys.join(", ")}): the suite reads it (env_file:); never stored, " \
                  "keep it out of version control"
      end

      def starter_for(detection)
        results = Store::Location.new(@results).dir
        Rackbench::Init::Starter.new(detection, env: @env, paths: @paths, log_root: results,
                                                work_dir: File.join(results, "init", File.basename(detection.dir)))
      end

      def parse
        OptionParser.new do |o|
          o.banner = "Usage: rackbench init [APP_DIR] [options]"
          o.on("--env K=V", "a variable the app needs (repeatable); written into the suite's env:") { |kv| env_option(kv) }
          o.on("--path P", "a path to try besides those detected (repeatable)") { |p| path_option(p) }
          o.on("--output FILE", "where to write the suite (default APP_DIR/rackbench.yml)") { |f| @output = f }
          o.on("--force", "replace an existing file") { @force = true }
          o.on("--no-probe", "do not start the app to try each path") { @probe = false }
          o.on("--results DIR", "where the servers' logs go (under init/; default #{Store::Location.default})") do |d|
            @results = d
          end
        end.parse!(@argv)
        raise ConfigError, "init takes one APP_DIR, got #{@argv.join(" ")}" if @argv.size > 1

        @argv.first || "."
      end

      def env_option(text)
        name, value = text.split("=", 2)
        raise ConfigError, "--env #{text}: give NAME=VALUE, like --env MAX_THREADS=5" unless value && name.match?(/\A\w+\z/)

        @env[name] = value
      end

      def path_option(path)
        raise ConfigError, "--path #{path}: give a path starting with /, like --path /health" unless path.start_with?("/")

        @paths << path
      end

      def report(starter, path)
        starter.outcomes.each do |o|
          @out.puts o.started? ? "  #{o.server}: started" : "  #{o.server}: cannot start: #{o.reason}"
        end
        starter.detection.left_out.each { |server, why| @out.puts "  #{server}: left out: #{why}" }
        @out.puts "  setup failed: #{starter.setup_failure}" if starter.setup_failure
        @out.puts "  endpoints: #{starter.kept.map { |p, status| "#{p} (#{status})" }.join(", ")}" unless starter.kept.empty?
        starter.dropped.each { |p, why| @out.puts "  left out #{p}: #{why}" }
        starter.needed.except(*starter.env.keys).each do |name, servers|
          @out.puts "  needs #{name}: #{servers.join(", ")} stopped without it; run init again with --env #{name}=VALUE"
        end
        starter.detection.notes.uniq.each { |n| @out.puts "  note: #{n}" }
        failed = starter.outcomes.size > starter.started.size || starter.setup_failure
        @out.puts "  the log paths above are in #{shown(Store::Location.new(@results).dir)}/" if failed
        @out.puts "wrote #{path}; #{next_step(starter)}"
      end

      def next_step(starter)
        return "run it with: rackbench run #{File.basename(path_name(starter))} --smoke" if starter.kept.any? || !@probe

        "nothing answered 2xx, so it has no endpoints yet: fix what is said above (--env NAME=VALUE for a variable, " \
          "--path /PATH for paths init cannot see), then run init again with --force"
      end

      # A folder as typed from the current one: relative when it is below it.
      def shown(dir) = dir.start_with?("#{Dir.pwd}/") ? dir.delete_prefix("#{Dir.pwd}/") : dir

      def path_name(starter) = @output || File.join(starter.detection.dir, "rackbench.yml")
    end
  end
end
