# frozen_string_literal: true

require_relative "class_archive"

module Rackbench
  module Servers
    # What the JRuby servers of 000_4acd4926cf356a23.txt (puma_jruby, trinidad,
    # torquebox) share: Debian's jruby, each one's gems in its own
    # vendor/jruby/NAME (bin/setup installs them with `jruby -S gem install
    # --install-dir`; apart, since jruby-rack must not see a newer rack), and an
    # environment outside bundler where GEM_PATH names that folder and the gems
    # Debian's jruby ships. Every check here reads files, never starts a
    # JVM, so `rackbench servers` stays fast.
    #
    # JRuby 9.3 speaks Ruby 2.6: an app using Ruby 3 syntax (endless def, ...)
    # fails to load, and the cell records that SyntaxError.
    class JRubyBase < Base
      JRUBY = "jruby"
      DEBIAN_GEMS = "/usr/share/jruby/lib/ruby/gems/shared"

      class << self
        def jruby_path = Executable.find(JRUBY)

        def typical_boot_s = 20.0

        def gem_home = File.join(ROOT, "vendor", "jruby", server_name)

        def gem_spec(name = gem_name) = vendored_gem_spec(gem_home, name)

        def installed? = !jruby_path.nil? && !gem_spec.nil?

        def unavailable_reason
          return "jruby is not installed (`bin/setup #{server_name}` installs it and the server)" unless jruby_path
          unless gem_spec
            return "gem #{gem_name} is not installed for JRuby in vendor/jruby/#{server_name} " \
                   "(`bin/setup #{server_name}` runs: #{install_hint})"
          end

          nil
        end

        def install_hint = "jruby -S gem install --install-dir vendor/jruby/#{server_name} #{gem_name}"

        # "17.0.15" for the java that jruby will run (JAVA_HOME's, else PATH's), from its release file.
        def java_version
          java = ENV["JAVA_HOME"] ? File.join(ENV["JAVA_HOME"], "bin", "java") : Executable.find("java")
          return nil unless java && File.exist?(java)

          release = File.join(File.dirname(File.realpath(java)), "..", "release")
          File.exist?(release) ? File.read(release)[/^JAVA_VERSION="([^"]+)"/, 1] : nil
        end

        def java_major = java_version.to_s[/\A(?:1\.)?(\d+)/, 1]&.to_i
      end

      # JRuby's quick start: what `jruby --dev` sets (JRuby's bin/.dev_mode.java_opts,
      # which Debian's jruby does not ship, so its --dev sets nothing: the
      # JVM compiles with C1 only and JRuby interprets, never compiling Ruby
      # to bytecode), and the JVM's serial collector. On the command line, so
      # the recorded command says it. A start took half the CPU seconds
      # (bench/jvm/run: Trinidad with the Rails app ready in 13 s of CPU
      # against 29 s at load 8-9, the serial collector 1-3 s less again) and
      # serves slower once warm.
      QUICK_START = %w[-J-XX:+TieredCompilation -J-XX:TieredStopAtLevel=1 -J-XX:+UseSerialGC -Xcompile.mode=OFF
                       -Xcompile.invokedynamic=false].freeze
      knob :quick_start, :boolean, default: false,
                                   doc: "JRuby's quick start (what `jruby --dev` sets: C1 only, JRuby's JIT off; " \
                                        "and the serial collector): a start for a check, not the JVM as deployed " \
                                        "(the label says +quick-start)"

      def self.supports_unix? = false
      def self.supports_yjit? = false
      # JRuby's gems, in vendor/jruby, outside the app's bundle
      def self.runs_in_app_bundle? = false

      # A quick start maps JRuby's classes from the class-data archive, where bin/setup built one (ClassArchive).
      def env
        { "RUBYOPT" => nil, "BUNDLE_GEMFILE" => nil, "BUNDLER_SETUP" => nil, "RUBYLIB" => nil,
          "GEM_HOME" => self.class.gem_home, "GEM_PATH" => [self.class.gem_home, DEBIAN_GEMS].join(File::PATH_SEPARATOR),
          "RACK_ENV" => "production", "JAVA_OPTS" => java_opts, "JRUBY_JSA" => nil,
          **(quick_start? ? ClassArchive.env : {}) }
      end

      def java_opts = nil

      def quick_start? = setting("quick_start")

      def marks = quick_start? ? ["+quick-start"] : []

      private

      # jruby with the entry's flags, ready for a script and its arguments.
      def jruby = [self.class.jruby_path || JRUBY, *(quick_start? ? QUICK_START : [])]

      def jruby_bin(exe) = [*jruby, File.join(self.class.gem_home, "bin", exe)]
    end
  end
end
