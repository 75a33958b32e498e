# frozen_string_literal: true

require "etc"
require "digest/sha2" # loaded here: Digest's const_missing is not thread-safe (installs run in parallel)

module Rackbench
  module Hosts
    # Puts the native engine (rackbench-load) on a load host, once per build:
    # the binary built here is copied when the host's architecture is this
    # machine's, else its C sources are copied and built there with make
    # (the host needs a C compiler and make). Installs go to
    # ~/.cache/rackbench/engine-DIGEST/ on the host, named by the digest of
    # what was copied, so a second run finds it; a host entry's engine: path
    # skips all this. Returns what a report records:
    #
    #   EngineInstall.new(connection).call
    #   # => {"path" => "...", "version" => "rackbench-load 0.1.0", "how" => "copied", "arch" => "x86_64"}
    class EngineInstall
      SOURCE_DIR = File.join(ROOT, "ext", "rackbench_load")
      BINARY = File.join(SOURCE_DIR, "rackbench-load")
      SOURCES = %w[Makefile *.c *.h].freeze

      # cache_dir: the folder on the host (default ~/.cache/rackbench); local_arch:
      # this machine's architecture (default uname -m).
      def initialize(connection, cache_dir: nil, local_arch: Etc.uname[:machine])
        @conn = connection
        @cache_dir = cache_dir
        @local_arch = local_arch
      end

      def call
        given = @conn.host.engine
        return describe(given, "given", nil) if given

        arch, home = @conn.capture("uname -m; cd && pwd").lines.map(&:strip).last(2)
        how = arch == @local_arch ? "copied" : "built"
        dir = "#{@cache_dir || "#{home}/.cache/rackbench"}/engine-#{digest(how)}"
        path = "#{dir}/rackbench-load"
        version = @conn.capture("test -x #{path} && #{path} --version || true").strip
        if version.empty?
          install(how, dir, path)
          version = @conn.capture("#{path} --version").strip
        end
        { "path" => path, "version" => version, "how" => how, "arch" => arch }
      end

      private

      def describe(path, how, arch)
        { "path" => path, "version" => @conn.capture("#{path} --version").strip, "how" => how, "arch" => arch }
      end

      # Each host copies into a folder of its own, then renames: hosts sharing
      # a home folder never see half a binary.
      def install(how, dir, path)
        staging = "#{dir}.#{@conn.host.name}.#{Process.pid}"
        @conn.capture("mkdir -p #{staging}")
        if how == "copied"
          @conn.upload(BINARY, "#{staging}/rackbench-load")
        else
          sources.each { |f| @conn.upload(f, "#{staging}/") }
          @conn.capture("make -s -C #{staging} rackbench-load", timeout_s: 300)
        end
        @conn.capture("mkdir -p #{dir} && mv -f #{staging}/rackbench-load #{path} && rm -rf #{staging}")
      end

      def sources = SOURCES.flat_map { |g| Dir[File.join(SOURCE_DIR, g)] }.sort

      def digest(how)
        files = how == "copied" ? [BINARY] : sources
        Digest::SHA256.hexdigest(files.map { |f| Digest::SHA256.file(f).hexdigest }.join)[0, 16]
      end
    end
  end
end
