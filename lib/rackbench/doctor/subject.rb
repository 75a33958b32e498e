# frozen_string_literal: true

module Rackbench
  module Doctor
    # What doctor examines: the app's files, the server configs as they would
    # run (Shape), the environment the servers get, and the suite when there
    # is one. Either from a suite (what `rackbench run` will start) or from an
    # app's folder (what `bundle exec puma` there would start, or the folder's
    # rackbench.yml when it has one).
    #
    #   subject = Subject.for("quick")            # a built-in suite, a suite file or an app folder
    #   subject = Subject.from_suite(suite, env: ENV.to_h)
    #   subject.files, subject.shapes, subject.env, subject.suite, subject.where_key(["pin"])
    class Subject
      # What doctor knows of each server config (Shape), from the suite, the app's file or the server's default.
      KEYS = %w[workers threads preload log_requests].freeze

      attr_reader :files, :suite, :env, :shapes

      # A suite's name or file, an app's folder, or nil for the current folder.
      def self.for(arg, env: ENV.to_h)
        dir = arg || Dir.pwd
        return from_suite(Suite.load(arg), env: env) unless File.directory?(dir)

        suite_file = File.join(dir, "rackbench.yml")
        return from_suite(Suite.load(suite_file), env: env) if File.file?(suite_file)
        unless File.file?(File.join(dir, "config.ru"))
          raise ConfigError, "#{dir}: no config.ru and no rackbench.yml (doctor takes a suite, or an app's folder)"
        end

        from_app(dir, env: env)
      end

      # The suite's servers get this process's environment with the suite's env: over it.
      def self.from_suite(suite, env: ENV.to_h)
        new(AppFiles.new(File.dirname(suite.app_path)), suite: suite,
                                                        env: env.merge(suite.env))
      end

      def self.from_app(dir, env: ENV.to_h) = new(AppFiles.new(dir), suite: nil, env: env)

      def initialize(files, suite:, env:)
        @files = files
        @suite = suite
        @env = env
        @shapes = suite ? suite_shapes : app_shapes
      end

      def suite? = !suite.nil?

      # The app's environment and where it comes from: [name, where]. Servers
      # started by rackbench run with RACK_ENV production (each adapter passes
      # it), which RAILS_ENV (Rails) and APP_ENV (Sinatra) override; `bundle
      # exec puma` in the app's folder runs in what its config/puma.rb and
      # environment say, else puma's default, development.
      def app_env
        framework = files.rails? ? "RAILS_ENV" : "APP_ENV"
        return [env[framework], env_where(framework)] if env[framework]
        return ["production", "rackbench's servers (--environment production)"] if suite?

        puma = ServerFile.read(files, ServerFile.app_files.fetch("puma"), server: "puma", env: env)
        setting = puma&.[]("environment")
        return [setting.value.to_s, puma.where("environment")] if setting && RubyValue.known?(setting.value)

        var = %w[APP_ENV RACK_ENV RAILS_ENV].find { |v| env[v] }
        var ? [env[var], env_where(var)] : ["development", "no RACK_ENV, RAILS_ENV or environment setting: puma's default"]
      end

      # Where an environment variable the servers get was set: the suite's env: or this shell.
      def env_where(var)
        return where_key(["env", var]) if suite? && suite["env"].to_h.key?(var)

        "the environment of this shell (#{var}=#{env[var]})"
      end

      # "bench.yml:12 servers.0.workers", or the file alone when the key is not in it.
      def where_key(key_path)
        line = suite.line(key_path)
        return "#{display(suite.path)}:#{line} #{key_path.join(".")}" if line
        return "the command line (#{key_path.last})" if suite.data.fetch("overrides", {}).key?(key_path.last)

        "#{display(suite.path)} (no #{key_path.join(".")}: the default)"
      end

      def display(path)
        path = path.to_s
        return File.join("(built-in)", File.basename(path)) if path.start_with?(Suite::BUILTIN_DIR)

        path = File.expand_path(path)
        path.start_with?("#{Dir.pwd}/") ? path.delete_prefix("#{Dir.pwd}/") : path
      end

      private

      # One shape per server config the plan deploys (a config with `clients`
      # values becomes one per concurrency level).
      def suite_shapes
        Plan.new(suite).groups.map { |g| [g.server_config, g.server_index] }.uniq.map do |entry, i|
          server = Servers.fetch(entry["server"]).new(entry)
          own = own_file(entry)
          values = KEYS.to_h do |key|
            [key, suite_value(entry, i, key, own)]
          end
          shape(server.label, entry["server"], values, instances: entry.fetch("instances", 1), yjit: entry["yjit"] == true)
        end
      end

      # [value, where]: the suite's key, else the app's own file, else the server's default.
      def suite_value(entry, index, key, own)
        return [entry[key], where_key(["servers", index, key])] if entry.key?(key)
        return [own[key].value, own.where(key)] if own&.[](key)

        default(entry["server"], key)
      end

      def app_shapes
        ServerFile.app_files.filter_map do |server, name|
          file = ServerFile.read(files, name, server: server, env: env) or next
          values = KEYS.to_h do |key|
            [key, file[key] ? [file[key].value, file.where(key)] : default(server, key)]
          end
          shape(server, server, values, instances: 1, yjit: false)
        end
      end

      def default(server, key)
        value = ServerDefaults.value(server, key)
        [value, "#{server}'s default#{" (#{value})" unless value.nil?}"]
      end

      # The app's own server config file a suite entry names (config:), read where doctor can.
      def own_file(entry)
        return nil unless entry["config"] && ServerFile.directives(entry["server"])

        app_dir = File.dirname(suite.app_path(entry["app"] || suite["app"]))
        ServerFile.read(AppFiles.new(app_dir), entry["config"], server: entry["server"], env: env)
      end

      def shape(label, server, values, instances:, yjit:)
        known = values.transform_values { |v, _| RubyValue.known?(v) ? v : nil }
        Shape.new(label: label, server: server, workers: known["workers"], threads: known["threads"],
                  preload: known["preload"], log_requests: known["log_requests"], instances: instances, yjit: yjit,
                  where: values.transform_values(&:last))
      end
    end
  end
end
