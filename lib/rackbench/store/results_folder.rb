# frozen_string_literal: true

require "fileutils"

module Rackbench
  # The results folder, checked before anything starts: it must exist (or be
  # creatable) and take a write of PROBE_BYTES, so a read-only or full disk
  # is one clear error (StoreError, exit 4) instead of a run that fails after
  # its servers started.
  #
  #   ResultsFolder.check!("rackbench-results")   # => the absolute path, or raises StoreError
  module ResultsFolder
    PROBE_BYTES = 1 << 20 # room for the store and a run's first cells

    module_function

    def check!(dir)
      path = File.expand_path(dir)
      FileUtils.mkdir_p(path)
      probe = File.join(path, ".rackbench-write-check-#{Process.pid}")
      File.open(probe, "wb") do |f|
        f.write("\0" * PROBE_BYTES)
        f.fsync
      end
      path
    rescue SystemCallError => e
      raise StoreError, "results folder #{path}: #{e.message.sub(/ @ .*/m, "")}; choose another with --results DIR"
    ensure
      FileUtils.rm_f(probe) if probe
    end
  end
end
