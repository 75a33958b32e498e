# frozen_string_literal: true

require_relative "jruby/base"

module Rackbench
  module Servers
    # Puma on JRuby (Debian's jruby 9.3): one JVM, real parallel threads, no
    # workers (JRuby cannot fork). Puma's check for clients that hung up reads
    # TCP_INFO, which JRuby 9.3 copies into a buffer shorter than this kernel's
    # answer (ArrayIndexOutOfBoundsException: last source index 280 out of
    # bounds for byte[256]); jruby/puma_tcp_info.rb gives puma the answer it
    # has for systems without TCP_INFO, so every JVM serves. Apps run on
    # Rack 2.2 (jruby/rack2.rb), as on Trinidad and TorqueBox, so the Rails
    # app's Rails 6.1 (installed beside it by bin/setup) loads.
    #
    #   - {server: puma_jruby, threads: 16}
    class PumaJruby < JRubyBase
      NAME = "puma_jruby"
      GEM = "puma"
      PINNED = "6.4.3"
      TCP_INFO_PATCH = File.join(__dir__, "jruby", "puma_tcp_info.rb")
      RACK2 = File.join(__dir__, "jruby", "rack2.rb")
      knob :threads, :whole, min: 0, default: 16, doc: "threads (min = max)"

      def self.install_hint = "jruby -S gem install --install-dir vendor/jruby/puma_jruby puma:#{PINNED} rack:2.2.11"

      def command(app:, bind:, **)
        threads = setting("threads")
        [*jruby, "-r", RACK2, "-r", TCP_INFO_PATCH, File.join(self.class.gem_home, "bin", "puma"),
         "--bind", "tcp://127.0.0.1:#{bind.port}", "--threads", "#{threads}:#{threads}",
         "--environment", "production", "--dir", File.dirname(app), app]
      end

      def shape = "x0:#{setting("threads")}"
    end

    register("puma_jruby", PumaJruby)
  end
end
