# frozen_string_literal: true

module Rackbench
  # A snapshot of a deployment's memory, worker by worker (PSS and USS from
  # smaps_rollup through Procfs): the Window takes one at the end of each
  # measured window, so a cell's repeats show memory against requests served
  # (Capacity turns them into "N MB shared + M MB per worker").
  #
  #   WorkerMemory.new(root_pids: deployment.pids).snapshot
  #   # => {"pss_bytes" => 96_000_000, "workers" => [{"pid" => 12, "pss_bytes" => ..., "uss_bytes" => ...}, ...]}
  #
  # Workers are the processes below the roots (Unicorn's, clustered Puma's),
  # or the roots when nothing runs below them.
  class WorkerMemory
    def initialize(root_pids:, proc_dir: Procfs::DIR)
      @sampler = Sampler.new(root_pids: root_pids, proc_dir: proc_dir)
      @root_pids = root_pids
      @proc_dir = proc_dir
    end

    def snapshot
      memory = @sampler.tree_pids.filter_map do |pid|
        bytes = Procfs.process_memory_bytes(pid, @proc_dir)
        bytes&.merge("pid" => pid)
      end
      self.class.from(memory, @root_pids)
    end

    # The snapshot of each process's memory (a hash with "pid"), the roots' and their descendants'.
    def self.from(memory, root_pids)
      return nil if memory.empty?

      workers = memory.reject { |m| root_pids.include?(m["pid"]) }
      { "pss_bytes" => memory.sum { |m| m["pss_bytes"] }, "workers" => (workers.empty? ? memory : workers) }
    end
  end
end
