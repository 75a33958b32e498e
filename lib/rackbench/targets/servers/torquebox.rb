# frozen_string_literal: true

require_relative "jruby/base"

module Rackbench
  module Servers
    # TorqueBox (000_4acd4926cf356a23.txt). The article's TorqueBox 1/2 (and
    # the 3.2.0 on RubyGems) boot JBoss AS 7, which needs Java 8 or older;
    # TorqueBox 4 (torquebox-web 4.0.0.beta3, java platform) is Undertow
    # embedded in JRuby, no application server, and starts on Debian's Java
    # 17. Its Rack env class overrides methods that JRuby 9.3 made final, so
    # as installed it answers every request 500; bin/setup renames those
    # overrides (jruby/torquebox_patch.rb) and jruby/torquebox_server.rb fills
    # each env before the app reads it. That server script serves the app
    # with as many Undertow worker threads as the knob says, on Rack 2.2 and,
    # for the Rails app, Rails 6.1 (both beside it in vendor/jruby/torquebox).
    #
    #   - {server: torquebox}               # 16 worker threads
    #   - {server: torquebox, threads: 100} # 100 worker threads
    class Torquebox < JRubyBase
      NAME = "torquebox"
      GEM = "torquebox-web"
      PINNED = "4.0.0.beta3"
      SERVER_SCRIPT = File.join(__dir__, "jruby", "torquebox_server.rb")
      knob :threads, :whole, min: 0, default: 16, doc: "Undertow worker threads"

      PATCH = File.join(__dir__, "jruby", "torquebox_patch.rb")
      PATCHED = "rackbench-patched.txt" # what PATCH writes into the gem folder

      def self.install_hint = "jruby -S gem install --install-dir vendor/jruby/torquebox torquebox-web:#{PINNED}"

      # "4.0.0.beta3+patched" once bin/setup renamed the overrides: provenance
      # says which jar served, and a probe of the unpatched jar is not reused.
      def self.version
        installed = super
        installed && patched? ? "#{installed}+patched" : installed
      end

      def self.patched? = File.exist?(File.join(gem_home, PATCHED))

      def self.unavailable_reason
        reason = super
        return reason if reason || patched?

        "torquebox-web's classes are not renamed for JRuby 9.3 (every request would answer 500): " \
          "`bin/setup torquebox` runs jruby #{PATCH.delete_prefix("#{ROOT}/")} vendor/jruby/torquebox"
      end

      def command(app:, bind:, **)
        [*jruby, SERVER_SCRIPT, bind.port.to_s, setting("threads").to_s, app]
      end

      def shape = "x0:#{setting("threads")}"
    end

    register("torquebox", Torquebox)
  end
end
