# frozen_string_literal: true

module Rackbench
  module Servers
    # Mongrel, the 2008 server of 004_d5fd84afbf770cf8.txt: one process, a
    # thread per request, a C HTTP parser. Its last release (1.1.5) needs
    # fastthread, which no longer builds; 1.2.0.pre2 builds on Ruby 3.1 once
    # gcc's -Werror=format-security is relaxed, so bin/setup installs it into
    # vendor/mongrel (outside the bundle: it pins daemons 1.0.10). Rack has no
    # Mongrel handler any more; mongrel/rack_server.rb is ours. TCP only.
    # 004's cluster is instances behind a proxy, each serving one request at a
    # time as the article's Rails 2 did under its global lock (lock: true wraps
    # the app in Rack::Lock; requests queue in Mongrel's threads):
    #
    #   - {server: mongrel, instances: 3, lock: true, proxy: {proxy: lighttpd, balance: round-robin}}
    class Mongrel < Base
      NAME = "mongrel"
      GEM = "mongrel"
      VERSION = "1.2.0.pre2"
      GEM_HOME = File.join(ROOT, "vendor", "mongrel")
      SERVER_SCRIPT = File.join(__dir__, "mongrel", "rack_server.rb")
      knob :lock, :boolean, default: false, doc: "true: one request at a time (Rack::Lock, like Rails 2's global lock)"

      class << self
        def supports_unix? = false
        # from vendor/mongrel, outside the app's bundle
        def runs_in_app_bundle? = false

        def gem_spec = vendored_gem_spec(GEM_HOME)

        def unavailable_reason
          return nil if installed?

          "mongrel #{VERSION} is not installed in vendor/mongrel (`bin/setup mongrel` builds it: gem install --install-dir " \
            "vendor/mongrel mongrel -v #{VERSION} -- --with-cflags=-Wno-error=format-security; 1.1.5 cannot be built: " \
            "its fastthread extension calls Config::CONFIG, removed from Ruby)"
        end
      end

      def command(app:, bind:, **)
        [ruby, SERVER_SCRIPT, bind.port.to_s, app, *("--lock" if locked?)]
      end

      def locked? = setting("lock")

      # Outside bundler, with vendor/mongrel beside the system's gems.
      def env
        { "RUBYOPT" => nil, "BUNDLE_GEMFILE" => nil, "BUNDLER_SETUP" => nil, "RACK_ENV" => "production",
          "GEM_PATH" => [GEM_HOME, *Gem.default_path].join(File::PATH_SEPARATOR) }
      end
    end

    register("mongrel", Mongrel)
  end
end
