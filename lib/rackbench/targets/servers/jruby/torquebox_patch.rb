# frozen_string_literal: true

# Run by bin/setup under JRuby, once the TorqueBox gems are installed:
#   jruby lib/rackbench/targets/servers/jruby/torquebox_patch.rb vendor/jruby/torquebox
#
# torquebox-web 4.0.0.beta3's jars were compiled against an older JRuby. Its
# Rack env (org.projectodd.wunderboss.rack.RackEnvironmentHash, a RubyHash
# whose entries are filled from the request as they are read) overrides
# methods that JRuby 9.3's RubyHash declares final, so the JVM refuses to
# load the class and every request answers 500 (IncompatibleClassChangeError).
# This finds, in every class of those jars, each method that would override a
# final method of a superclass in the running JRuby, and renames it (name +
# "$rackbench"): nothing calls it any more, and the class loads. It is run
# with the JRuby that will serve, so it reads that JRuby's own classes.
#
# What renaming costs: those overrides filled the whole env before answering
# (keys, values, hash). Under JRuby 9.3, Hash#keys, #key? and #size (tried;
# #values, #to_a and #empty? going by their Java signatures) call methods the
# class does not override, so they see only the entries read so far, while
# #[], #fetch and #each fill it: torquebox_server.rb fills each env first.
# The file written beside the jars (STAMP) lists what was renamed.
require "java"
require_relative "class_file"

module Rackbench
  module Servers
    # Renames, in the jars under a gem folder, the methods that override a
    # final method of JRuby's classes (see the file's header).
    class TorqueboxPatch
      JARS = "gems/torquebox-{web,core}-*-java/lib/**/*.jar"
      SUFFIX = "$rackbench"
      STAMP = "rackbench-patched.txt"

      def initialize(gem_home)
        @gem_home = gem_home
        @parsed = {}
      end

      # Rewrites each jar that has a clash; writes STAMP; answers its lines.
      def run
        jars = Dir[File.join(@gem_home, JARS)].sort # rubocop:disable Lint/RedundantDirGlobSort -- Ruby 2.6's Dir[] does not sort
        raise ArgumentError, "no torquebox-web jars under #{@gem_home}" if jars.empty?

        lines = jars.flat_map { |jar| patch_jar(jar) }
        lines = ["no method overrides a final method of JRuby #{JRUBY_VERSION}"] if lines.empty?
        File.write(File.join(@gem_home, STAMP), "# torquebox_patch.rb, JRuby #{JRUBY_VERSION}\n#{lines.join("\n")}\n")
        lines
      end

      private

      def patch_jar(jar)
        renamed = {}
        lines = []
        each_class(jar) do |entry, bytes|
          klass = JavaClassFile.new(bytes)
          klass.method_infos.select { |m| m.name.end_with?(SUFFIX) }.each do |m|
            lines << "#{File.basename(jar)} #{klass.name}.#{m.name.chomp(SUFFIX)}#{m.descriptor} -> #{m.name} (before)"
          end
          clashes = klass.method_infos.map { |m| [m.name, m.descriptor] } & final_methods_above(klass, jar)
          next if clashes.empty?

          renamed[entry] = klass.rename_methods(clashes) { |name| name + SUFFIX }
          clashes.each do |name, descriptor|
            lines << "#{File.basename(jar)} #{klass.name}.#{name}#{descriptor} -> #{name}#{SUFFIX}"
          end
        end
        rewrite(jar, renamed) unless renamed.empty?
        lines
      end

      # [name, descriptor] of the final, overridable methods of klass's superclasses.
      def final_methods_above(klass, jar)
        finals = []
        name = klass.super_name
        while name && (parent = class_named(name, jar))
          finals.concat(parent.method_infos.select { |m| m.final? && m.overridable? }.map { |m| [m.name, m.descriptor] })
          name = parent.super_name
        end
        finals
      end

      # A superclass from the same jar, else from the JVM running this (JRuby's own); nil if neither has it.
      def class_named(name, jar)
        @parsed[name] ||= begin
          bytes = read_entry(jar, "#{name}.class") || read_resource("/#{name}.class")
          bytes && JavaClassFile.new(bytes)
        end
      end

      def read_resource(path)
        stream = java.lang.Object.java_class.getResourceAsStream(path) ||
                 java.lang.Thread.currentThread.getContextClassLoader.getResourceAsStream(path[1..])
        stream && String.from_java_bytes(stream.readAllBytes)
      ensure
        stream&.close
      end

      def read_entry(jar, path)
        zip = java.util.zip.ZipFile.new(jar)
        entry = zip.getEntry(path)
        entry && String.from_java_bytes(zip.getInputStream(entry).readAllBytes)
      ensure
        zip&.close
      end

      def each_class(jar)
        zip = java.util.zip.ZipFile.new(jar)
        zip.entries.each do |entry|
          next unless entry.getName.end_with?(".class")

          yield entry.getName, String.from_java_bytes(zip.getInputStream(entry).readAllBytes)
        end
      ensure
        zip&.close
      end

      # Writes the jar anew with the replaced entries, then moves it over the old one.
      def rewrite(jar, replaced)
        tmp = "#{jar}.tmp"
        zip = java.util.zip.ZipFile.new(jar)
        out = java.util.zip.ZipOutputStream.new(java.io.FileOutputStream.new(tmp))
        zip.entries.each do |entry|
          out.putNextEntry(java.util.zip.ZipEntry.new(entry.getName))
          bytes = replaced[entry.getName]
          bytes ? out.write(bytes.to_java_bytes) : out.write(zip.getInputStream(entry).readAllBytes)
          out.closeEntry
        end
        out.close
        zip.close
        File.rename(tmp, jar)
      end
    end
  end
end

if $PROGRAM_NAME == __FILE__
  abort "usage: jruby #{File.basename(__FILE__)} GEM_HOME" unless ARGV.size == 1
  puts Rackbench::Servers::TorqueboxPatch.new(ARGV[0]).run
end
