# frozen_string_literal: true

require "fileutils"

module Rackbench
  # What a suite's own app needs before its first deployment, and what the
  # run records about it. The Runner creates it once per run:
  #
  #   env: {RAILS_ENV: production, SECRET_KEY_BASE: dummy}
  #   setup:                       # run once, in the app's folder, under its bundle
  #     - bin/rails db:prepare
  #   reset: [bin/rails db:reset]  # before each start (reset_each: window: each window)
  #
  #   own = OwnApp.new(suite)
  #   own.provenance        # {config.ru => {gemfile, gemfile_lock_sha256, ruby, gems}}
  #   own.setup!(supervisor, dir, env)   # ServiceError naming the command that failed
  class OwnApp
    SETUP_TIMEOUT_S = 600

    def initialize(suite)
      @suite = suite
    end

    # The suite's app and every server entry's own app, as config.ru paths.
    def app_paths
      names = [@suite["app"], *@suite.server_configs.map { |c| c["app"] }].compact.uniq
      names.map { |n| @suite.app_path(n) }.uniq
    end

    # Each app's bundle by its config.ru path (a server entry's other
    # Gemfile, env BUNDLE_GEMFILE, as "PATH (Gemfile.next)").
    def provenance
      (app_paths.map { |path| [path, nil] } + other_gemfiles).filter_map do |path, gemfile|
        name = gemfile ? "#{path} (#{File.basename(gemfile)})" : path
        bundle = AppBundle.for(path, gemfile: gemfile)
        [name, bundle.to_h] if bundle
      rescue ServiceError => e
        [name, { "error" => e.message }]
      end.to_h
    end

    # The env every server process gets: the services' then the suite's (its env_file's, then env:'s).
    def env(service_env) = service_env.merge(@suite.env)

    # Runs each setup: command once with sh, in the suite app's folder; the
    # first that fails (or outlives SETUP_TIMEOUT_S) stops the run.
    def setup!(supervisor, dir, service_env, log_root: nil)
      run_commands(@suite["setup"] || [], supervisor, dir, env(service_env), app_path: app_paths.first, log_root: log_root)
    end

    # A server entry's setup: commands, once before its first start, in its
    # app's folder with its env over the suite's; the first that fails
    # fails that server's cells.
    def server_setup!(server, supervisor, dir, service_env, app_path:, log_root: nil)
      run_commands(server.setup, supervisor, dir, env(service_env).merge(server.entry_env), app_path: app_path,
                                                                                            log_root: log_root)
    end

    # The suite's reset: commands (a db:reset, a truncate), with the server
    # entry's env over the suite's, before a start or a window.
    def server_reset!(server, supervisor, dir, service_env, app_path:, log_root: nil)
      run_commands(@suite["reset"], supervisor, dir, env(service_env).merge(server.entry_env), app_path: app_path,
                                                                                               log_root: log_root)
    end

    private

    def other_gemfiles
      @suite.server_configs.filter_map do |c|
        path = @suite.app_path(*c["app"])
        gemfile = c.dig("env", "BUNDLE_GEMFILE")&.then { |g| File.expand_path(g, File.dirname(path)) }
        [path, gemfile] if gemfile && gemfile != AppBundle.for(path)&.gemfile
      end.uniq
    end

    def run_commands(commands, supervisor, dir, env, app_path:, log_root:)
      return if commands.empty?

      app_dir = File.dirname(app_path)
      bundle = AppBundle.for(app_path)
      env = (bundle ? bundle.env : {}).merge(env)
      FileUtils.mkdir_p(dir)
      commands.each_with_index do |command, i|
        log_path = File.join(dir, "setup-#{i + 1}.log")
        output, status, = supervisor.capture(["sh", "-c", command], name: "setup #{i + 1}", env: env, chdir: app_dir,
                                                                    log_path: log_path, timeout_s: SETUP_TIMEOUT_S)
        next if status.success?

        ran = Supervisor::Child.new(name: "setup command #{command.inspect}", status: status, log_path: log_path)
        raise ServiceError.new(ExitReason.new(ran, app_dir: app_dir, log_root: log_root).failed,
                               log_tail: output.lines.last(10).join)
      end
    end
  end
end
