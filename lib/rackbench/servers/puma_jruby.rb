# frozen_string_literal: true

require_relative "jruby/base"

module Rackbench
  module Servers
    # Puma on JRuby (Debian's jruby 9.3): one JVM, real parallel threads, no
    # workers (JRuby cannot fork). Pinned to puma 6.4.3; on this JRuby 6.6.1
    # fails every request in its Java HTTP parser (ArrayIndexOutOfBoundsException:
    # last source index 280 out of bounds for byte[256]), and 6.4.3 (like 5.6.9
    # and 6.0.2) does so in about half of the JVMs started: jruby/puma_fail_fast.rb
    # makes such a JVM exit on its first request, so the failure shows at once.
    #
    #   - {server: puma_jruby, threads: 16}
    class PumaJruby < JRubyBase
      NAME = "puma_jruby"
      GEM = "puma"
      PINNED = "6.4.3"
      FAIL_FAST = File.join(__dir__, "jruby", "puma_fail_fast.rb")
      knob :threads, "threads (min = max; default 16)"

      def self.install_hint = "jruby -S gem install --install-dir vendor/jruby/puma_jruby puma:#{PINNED} rack:3.2.8"

      def command(app:, bind:, **)
        threads = int("threads", 16)
        [self.class.jruby_path || JRUBY, "-r", FAIL_FAST, File.join(self.class.gem_home, "bin", "puma"),
         "--bind", "tcp://127.0.0.1:#{bind.port}", "--threads", "#{threads}:#{threads}",
         "--environment", "production", "--dir", File.dirname(app), app]
      end

      def shape = "x0:#{int("threads", 16)}"
    end

    register("puma_jruby", PumaJruby)
  end
end
