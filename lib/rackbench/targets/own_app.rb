# frozen_string_literal: true

require "fileutils"

module Rackbench
  # What a suite's own app needs before its first deployment, and what the
  # run records about it. The Runner creates it once per run:
  #
  #   env: {RAILS_ENV: production, SECRET_KEY_BASE: dummy}
  #   setup:                       # run once, in the app's folder, under its bundle
  #     - bin/rails db:prepare
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

    def provenance
      app_paths.filter_map do |path|
        bundle = AppBundle.for(path)
        [path, bundle.to_h] if bundle
      rescue ServiceError => e
        [path, { "error" => e.message }]
      end.to_h
    end

    # The env every server process gets: the services' then the suite's.
    def env(service_env) = service_env.merge(@suite["env"].to_h { |k, v| [k.to_s, v.to_s] })

    # Runs each setup: command once with sh, in the suite app's folder; the
    # first that fails (or outlives SETUP_TIMEOUT_S) stops the run.
    def setup!(supervisor, dir, service_env)
      commands = @suite["setup"] || []
      return if commands.empty?

      app_dir = File.dirname(app_paths.first)
      bundle = AppBundle.for(app_paths.first)
      env = (bundle ? bundle.env : {}).merge(env(service_env))
      FileUtils.mkdir_p(dir)
      commands.each_with_index do |command, i|
        output, status, = supervisor.capture(["sh", "-c", command], name: "setup #{i + 1}", env: env, chdir: app_dir,
                                                                    log_path: File.join(dir, "setup-#{i + 1}.log"),
                                                                    timeout_s: SETUP_TIMEOUT_S)
        next if status.success?

        raise ServiceError.new("setup command #{command.inspect} failed (#{status.inspect}) in #{app_dir}",
                               log_tail: output.lines.last(10).join)
      end
    end
  end
end
