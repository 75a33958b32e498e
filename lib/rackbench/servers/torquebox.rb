# frozen_string_literal: true

require "yaml"
require_relative "jruby/base"

module Rackbench
  module Servers
    # TorqueBox (000_4acd4926cf356a23.txt): a Rack app deployed into the JBoss
    # AS 7 that the torquebox-server gem carries. 3.2.0 is the last release on
    # RubyGems (TorqueBox 4 never reached it), and JBoss AS 7 predates the Java
    # module system: it needs Java 8 or older, while Debian 12 ships Java 17.
    # bin/setup therefore leaves the 93 MB gem out, and #unavailable_reason
    # says so with what the attempt on this machine hit. Where Java 8 and the
    # gem exist (vendor/jruby/torquebox), the app is deployed by a descriptor
    # in the run folder's copy-free deployments dir and `torquebox run` starts
    # JBoss with its HTTP port moved by --port-offset (port >= 8080).
    #
    #   - {server: torquebox}
    class Torquebox < JRubyBase
      NAME = "torquebox"
      GEM = "torquebox-server"
      TRIED = "3.2.0"
      MAX_JAVA = 8
      knob :threads, "taken so 000's suite (threads = clients) validates; not applied: TorqueBox cannot run on Java > 8"
      # What `torquebox run` (3.2.0 on JRuby 9.3.9, OpenJDK 17.0.15) printed here.
      ERRORS_SEEN = [
        "Unrecognized VM option 'MaxPermSize=256m' / Error: Could not create the Java Virtual Machine",
        "with that option ignored: java.lang.IllegalAccessError: class __redirected.__SAXParserFactory cannot " \
        "access class com.sun.org.apache.xerces.internal.jaxp.SAXParserFactoryImpl (in module java.xml)"
      ].freeze

      class << self
        def install_hint = "jruby -S gem install --install-dir vendor/jruby/torquebox torquebox torquebox-server -v #{TRIED}"

        def unavailable_reason
          java = java_version
          too_new = java_major && java_major > MAX_JAVA
          reason = super
          return reason unless reason || too_new

          why_java = "TorqueBox #{TRIED} (the last on RubyGems) boots JBoss AS 7, which needs Java <= #{MAX_JAVA}; " \
                     "java here is #{java || "missing"}"
          return "#{why_java}; tried on this machine: #{ERRORS_SEEN.join("; ")}" if too_new && reason.nil?
          return "#{reason}; left out by bin/setup: #{why_java} (tried here: #{ERRORS_SEEN.first})" if too_new

          reason
        end
      end

      def validate!
        super
        if config["port"] && config["port"] < 8080
          raise ConfigError,
                "server torquebox: JBoss's port offset needs port >= 8080, got #{config["port"]}"
        end

        self
      end

      def bind(dir)
        bound = super
        bound.port = Servers::Base.free_port while bound.port < 8080
        bound
      end

      def command(app:, bind:, **)
        deployments = File.join(self.class.gem_home, "gems", "torquebox-server-#{self.class.version}-java",
                                "jboss", "standalone", "deployments")
        File.write(File.join(deployments, "rackbench-knob.yml"),
                   { "application" => { "root" => File.dirname(app) }, "environment" => { "RACK_ENV" => "production" },
                     "web" => { "rackup" => File.basename(app), "context" => "/" } }.to_yaml)
        [*jruby_bin("torquebox"), "run", "--bind-address", "127.0.0.1", "--port-offset", (bind.port - 8080).to_s]
      end
    end

    register("torquebox", Torquebox)
  end
end
