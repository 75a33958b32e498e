# frozen_string_literal: true

require "digest"
require "fileutils"

module Rackbench
  module Services
    class Postgres < Base
      # A cluster that initdb made once, kept in rackbench's cache
      # (~/.cache/rackbench/postgres-DIGEST: DIGEST of the initdb binary and
      # its arguments but the folder) and copied into each start's folder
      # with `cp -a` (owner and modes kept): every start still gets a fresh
      # cluster of its own, for a copy's CPU (about 0.1 CPU-s) instead of
      # initdb's (about 1.3 on this project's VM). Only a whole cluster is
      # kept: copied beside the cache's name, then renamed into place.
      #
      #   template = Template.new(initdb_argv)
      #   template.copy_command(data_dir)   # ["cp", "-a", ".../postgres-1a2b...", data_dir], or nil without one
      #   template.keep(supervisor, data_dir, log_dir)   # after initdb made data_dir
      class Template
        def self.root = File.join(ENV["XDG_CACHE_HOME"] || File.join(Dir.home, ".cache"), "rackbench")

        def initialize(initdb_argv, root: Template.root)
          @initdb_argv = initdb_argv
          @root = root
        end

        def path = @path ||= File.join(@root, "postgres-#{digest}")

        # The copy of a kept cluster into data_dir, or nil when none is kept.
        def copy_command(data_dir) = File.directory?(path) ? ["cp", "-a", path, data_dir] : nil

        # Keeps data_dir, a cluster initdb just made, unless another start kept one first.
        def keep(supervisor, data_dir, log_dir)
          FileUtils.mkdir_p(@root)
          staging = "#{path}.#{Process.pid}.tmp"
          log_path = File.join(log_dir, "template.log")
          _, status = supervisor.capture(["cp", "-a", data_dir, staging], name: "postgres template", log_path: log_path,
                                                                          timeout_s: 120)
          File.rename(staging, path) if status.success? && !File.directory?(path)
        rescue SystemCallError
          nil # another start renamed its own into place first, or the cache cannot be written: initdb next time
        ensure
          FileUtils.rm_rf(staging) if staging
        end

        private

        def digest
          initdb = @initdb_argv.find { |arg| File.basename(arg) == "initdb" }
          stat = File.stat(initdb)
          folder_at = @initdb_argv.index("-D")
          args = @initdb_argv.reject.with_index { |_, i| i == folder_at + 1 }
          Digest::SHA256.hexdigest([File.realpath(initdb), stat.size, stat.mtime.to_i, args].inspect)[0, 16]
        end
      end
    end
  end
end
