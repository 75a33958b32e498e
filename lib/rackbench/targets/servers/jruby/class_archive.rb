# frozen_string_literal: true

module Rackbench
  module Servers
    # JRuby's classes as a quick start loads them, read, parsed and verified
    # once into a class-data archive (Java's AppCDS, a dynamic archive:
    # -XX:ArchiveClassesAtExit), which a JVM started in JRuby's quick start
    # then maps instead of loading each class from jruby.jar (JRuby's launcher
    # passes JRUBY_JSA on as -XX:SharedArchiveFile). `jruby -e` of WORKLOAD in
    # the quick start mapped 6,557 classes from it and cost 3.5 CPU s against
    # 5.2 without, alternated 4 times at load 22.
    #
    # Quick starts only (quick_start: true): a JVM as deployed starts as a
    # user's would, and the archive is one more file mapped into its memory.
    # bin/setup builds it, once per machine into its cache (keyed by this
    # file, jruby/base.rb's flags, JRuby's version and the java's release
    # file), and links it at vendor/jruby/classes. None there: a quick start
    # goes without. A stale one (made by another java build, or for another
    # jruby.jar: the JVM checks both): the JVM refuses it and starts without.
    # bin/setup's install_jruby_classes calls ClassArchive.build(DIR).
    module ClassArchive
      FILE = "jruby.jsa"
      # What every JRuby server loads besides JRuby's core: sockets, threads,
      # Java integration, RubyGems, and the standard library servers use.
      WORKLOAD = <<~RUBY
        require "java"; require "jruby"; require "socket"; require "json"; require "logger"; require "uri"
        require "time"; require "set"; require "stringio"; require "net/http"; require "cgi"; require "securerandom"
        server = TCPServer.new("127.0.0.1", 0)
        Thread.new { server.accept.close rescue nil }
        TCPSocket.new("127.0.0.1", server.addr[1]).close
        java.util.concurrent.ConcurrentHashMap.new.put("a", 1)
        Gem::Specification.each { |s| s.name }
      RUBY

      def self.path = File.join(ROOT, "vendor", "jruby", "classes", FILE)

      # What a quick start adds to its JVM's environment: the archive, where there is one.
      def self.env = File.exist?(path) ? { "JRUBY_JSA" => path } : {}

      # Writes DIR/jruby.jsa from one JRuby run of WORKLOAD in the quick start; raises if JRuby fails.
      def self.build(dir)
        out = File.join(dir, FILE)
        env = { "JAVA_OPTS" => "-XX:ArchiveClassesAtExit=#{out}", "RUBYOPT" => nil, "BUNDLE_GEMFILE" => nil,
                "BUNDLER_SETUP" => nil, "RUBYLIB" => nil, "GEM_HOME" => nil, "GEM_PATH" => nil, "JRUBY_JSA" => nil }
        argv = [JRubyBase.jruby_path || JRubyBase::JRUBY, *JRubyBase::QUICK_START, "-e", WORKLOAD]
        ok = system(env, *argv, out: File::NULL)
        raise Error, "#{argv.first} failed building the class-data archive #{out}" unless ok && File.exist?(out)

        out
      end
    end
  end
end
