# frozen_string_literal: true

require_relative "jruby/base"

module Rackbench
  module Servers
    # TorqueBox (000_4acd4926cf356a23.txt). The article's TorqueBox 1/2 (and
    # the 3.2.0 on RubyGems) boot JBoss AS 7, which needs Java 8 or older;
    # TorqueBox 4 (torquebox-web 4.0.0.beta3, java platform) is Undertow
    # embedded in JRuby, no application server, and starts on Debian's Java
    # 17. jruby/torquebox_server.rb serves the app with as many Undertow
    # worker threads as the knob says. Whether it then answers is left to the
    # attempt (`rackbench servers --probe`, or a run's cell), never assumed.
    #
    #   - {server: torquebox}               # 16 worker threads
    #   - {server: torquebox, threads: 100} # 100 worker threads
    class Torquebox < JRubyBase
      NAME = "torquebox"
      GEM = "torquebox-web"
      PINNED = "4.0.0.beta3"
      SERVER_SCRIPT = File.join(__dir__, "jruby", "torquebox_server.rb")
      knob :threads, "Undertow worker threads (default 16)"

      def self.install_hint = "jruby -S gem install --install-dir vendor/jruby/torquebox torquebox-web:#{PINNED}"

      def command(app:, bind:, **)
        [self.class.jruby_path || JRUBY, SERVER_SCRIPT, bind.port.to_s, int("threads", 16).to_s, app]
      end

      def shape = "x0:#{int("threads", 16)}"
    end

    register("torquebox", Torquebox)
  end
end
