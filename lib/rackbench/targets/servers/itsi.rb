# frozen_string_literal: true

module Rackbench
  module Servers
    # Itsi (itsi-server): an HTTP server written in Rust (hyper and tokio) that
    # calls a Rack app on a pool of Ruby threads, optionally in forked workers.
    # A server of today beside the seeds'. RubyGems has a precompiled
    # x86_64-linux build carrying an extension per Ruby (3.1 among them);
    # bin/setup installs it into vendor/itsi, outside the bundle, as Mongrel
    # is: it pins json ~> 2 (rackbench's bundle has json 3) and brings rb_sys.
    # Like Mongrel it runs from there even for an app with its own bundle.
    # Itsi writes a pid file into ITSI_SERVER_PID_DIR (else .itsi.pid in the
    # app's folder): the command points it at the run folder.
    #
    #   - {server: itsi, workers: 2, threads: 4}
    class Itsi < Base
      NAME = "itsi"
      GEM = "itsi-server"
      VERSION = "0.2.27"
      GEM_HOME = File.join(ROOT, "vendor", "itsi")
      knob :workers, :whole, min: 0, default: 1, doc: "processes (-w; 1: one process, no cluster)"
      knob :threads, :whole, min: 0, default: 1, doc: "Ruby threads for Rack calls per process (-t)"

      class << self
        # from vendor/itsi, outside the app's bundle
        def runs_in_app_bundle? = false

        def gem_spec = vendored_gem_spec(GEM_HOME)

        def unavailable_reason
          return nil if installed?

          "itsi-server #{VERSION} is not installed in vendor/itsi (`bin/setup itsi` runs: gem install " \
            "--install-dir vendor/itsi itsi-server -v #{VERSION}, the x86_64-linux build)"
        end

        def executable = File.join(gem_spec.full_gem_path, "exe", "itsi")
      end

      def command(app:, bind:, dir:)
        address = bind.unix? ? "unix://#{bind.socket_path}" : "http://#{bind.address}:#{bind.port}"
        ["env", "ITSI_SERVER_PID_DIR=#{dir}", ruby, self.class.executable, "--bind", address,
         "--workers", setting("workers").to_s, "--threads", setting("threads").to_s, "--rackup_file", app]
      end

      # Outside bundler, with vendor/itsi beside the system's gems.
      def env
        { "RUBYOPT" => nil, "BUNDLE_GEMFILE" => nil, "BUNDLER_SETUP" => nil, "RACK_ENV" => "production",
          "GEM_PATH" => [GEM_HOME, *Gem.default_path].join(File::PATH_SEPARATOR) }
      end
    end

    register("itsi", Itsi)
  end
end
