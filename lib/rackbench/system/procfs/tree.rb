# frozen_string_literal: true

module Rackbench
  # Procfs's reading of a process tree (loaded with procfs.rb): the roots and
  # every process below them, from the kernel's lists of each thread's
  # children.
  #
  #   Procfs.tree_stats([4242])   # => [ProcessStat of 4242, of its workers, ...], or nil (no such lists)
  #   Procfs.children(4242)       # => [4250, 4251]
  module Procfs
    module_function

    # The ProcessStat of each root and of every process below them, read
    # through the kernel's lists of each thread's children
    # (/proc/PID/task/TID/children): only the tree's files, not every
    # process's stat (a scan of all 113 processes here cost 3 ms of CPU, and
    # Drain reads the tree twenty times a second while it waits). nil where
    # the kernel keeps no such lists: then ask process_stats.
    def tree_stats(roots, proc_dir = DIR)
      return nil unless children_listed?(proc_dir)

      found = {}
      queue = roots.dup
      until queue.empty?
        pid = queue.shift
        next if found.key?(pid)

        stat = process_stat(pid, proc_dir) or next
        found[pid] = stat
        queue.concat(children(pid, proc_dir))
      end
      found.values
    end

    # The pids of pid's children (those of any of its threads).
    def children(pid, proc_dir = DIR)
      Dir.glob("#{proc_dir}/#{pid}/task/*/children").flat_map { |file| read(file).to_s.split.map(&:to_i) }
    end

    # Whether this kernel lists a thread's children (CONFIG_PROC_CHILDREN), asked once per /proc.
    def children_listed?(proc_dir = DIR)
      @children_listed ||= {}
      @children_listed.fetch(proc_dir) do
        @children_listed[proc_dir] = File.exist?("#{proc_dir}/#{Process.pid}/task/#{Process.pid}/children")
      end
    end
  end
end
