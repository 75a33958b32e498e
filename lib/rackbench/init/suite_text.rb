# frozen_string_literal: true

require "json"
require "yaml"

module Rackbench
  module Init
    # The commented starter suite `rackbench init` writes from a Starter:
    # env (given, and the variables the app stopped without, as comments),
    # setup, the endpoints that answered 2xx with their expect_status (the
    # others as comments with why), and the servers (one that could not start
    # commented out with its reason; those its bundle lacks named with how to
    # add them).
    #
    # Secret values (Starter#env_parts) go to the env file it names
    # (env_file:), never into the suite.
    #
    #   File.write("rackbench.yml", SuiteText.new(starter, env_file: "rackbench.env").to_s)
    class SuiteText
      def initialize(starter, env_file: "rackbench.env")
        @starter = starter
        @detection = starter.detection
        @env_file = env_file
      end

      def to_s
        name = File.basename(@detection.dir)
        lines = ["# Starter suite written by `rackbench init` for #{name} (#{@detection.framework}). " \
                 "Edit freely; `rackbench run rackbench.yml` runs it.", ""]
        lines << "name: #{name}"
        lines << "app: config.ru              # served under the app's own Gemfile (bundle exec)"
        lines += env_lines
        lines += section("setup", @starter.setup, "# run once, in this folder, before the first server starts")
        lines << "# setup failed, so no server was started: #{@starter.setup_failure}" if @starter.setup_failure
        lines << "ready_path: #{@starter.ready_path}           # answers once the app has booted" if @starter.ready_path
        lines += endpoint_lines
        lines += ["concurrency: [1, 8, 32]", "duration_s: 10", "warmup_s: 2", "engine: native", ""]
        lines += server_lines
        lines << "smoke: {concurrency: [4], duration_s: 1, warmup_s: 0, repeats: 1, deployments: 1}"
        lines.join("\n") << "\n"
      end

      private

      def env_lines
        env, secret = @starter.env_parts
        needed = @starter.needed.except(*@starter.env.keys)
        return [] if env.empty? && secret.empty? && needed.empty?

        lines = ["# env of every server process#{" (given with --env)" unless @starter.given_env.empty?}"]
        lines << (env.empty? ? "env: {}" : section("env", env).first)
        unless secret.empty?
          lines << "env_file: #{@env_file}    # #{secret.keys.join(", ")}: secrets, never stored; keep the file out of git"
        end
        needed.each do |name, servers|
          lines << "#   #{name}: ...    # needed: #{servers.join(", ")} stopped without it; set it (or run init with " \
                   "--env #{name}=...)"
        end
        lines
      end

      def section(key, value, comment = nil)
        return [] if value.empty?

        [comment, { key => value }.to_yaml.delete_prefix("---\n").chomp].compact
      end

      def endpoint_lines
        kept = @starter.kept
        lines = ["# GET paths that answered 2xx, each checked before it is measured (expect_status). Add real requests too:",
                 "#   - {name: create, path: /items, method: POST, json: {item: {name: x}}, expect_status: 201}",
                 "#   - {path: \"/items/:id\", ids: [1, 2, 3]}"]
        lines << (kept.empty? ? "endpoints: []   # none answered 2xx: see why below, then run init again" : "endpoints:")
        lines += kept.map { |path, status| "  - #{endpoint(path, status)}" }
        lines += @starter.dropped.map { |path, why| "  # - #{path}    # left out: #{why}" }
        lines + ["# mix: [{endpoint: #{kept.keys.first || "/"}, weight: 80}, ...]   # one more cell: these served at once", ""]
      end

      def endpoint(path, status)
        headers = @starter.headers
        "{path: #{path}, #{"headers: #{headers.to_json}, " unless headers.empty?}expect_status: #{status}}"
      end

      def server_lines
        outcomes = @starter.outcomes
        return no_server_lines if outcomes.empty?

        lines = ["# The servers the app's bundle has, each started once by init (`rackbench servers` lists their knobs):"]
        lines << (@starter.started.empty? ? "servers: []   # none started: see why below" : "servers:")
        outcomes.each do |o|
          next lines << "  - #{flow(o.entry)}" if o.started?

          lines << "  # - #{flow(o.entry)}    # cannot start: #{here(o.reason)}"
          o.needed.each { |name| lines << "  #   it needs #{name}: add env: {#{name}: ...} to the entry, or run init with --env" }
        end
        lines += @detection.left_out.map { |server, why| "# left out: #{here(why)}; then add {server: #{server}}" }
        lines + [""]
      end

      def no_server_lines
        lines = @detection.left_out.map { |server, why| "# left out: #{here(why)}; then add {server: #{server}}" }
        why = if @starter.setup_failure then "setup failed (above)"
              else "no server in the Gemfile.lock: `bundle add puma`, then list it here"
              end
        lines + ["servers:   # #{why}", "  - #{flow(@starter.entry("puma"))}", ""]
      end

      # "{server: puma, threads: 5}"
      def flow(entry) = "{#{entry.map { |key, value| "#{key}: #{value}" }.join(", ")}}"

      # A reason as the suite's folder reads it: the app's folder is ".".
      def here(text) = text.gsub("in #{@detection.dir}", "in this folder").gsub("#{@detection.dir}/", "")
    end
  end
end
