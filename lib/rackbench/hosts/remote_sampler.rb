# frozen_string_literal: true

module Rackbench
  module Hosts
    # The Sampler of a server tree on another host: the same readings (RSS,
    # PSS from smaps_rollup, CPU, processes, threads) from the host's /proc,
    # read over the run's SSH connection in one short command per sample
    # (Procfs::SNAPSHOT_SH: every process's stat line, then the Pss of the
    # tree under the roots). Assumes the host's clock tick and page size are
    # this machine's (both are the Linux defaults).
    #
    #   RemoteSampler.new(connection, root_pids: [4242]).start ... .stop  # => [Sampler::Sample]
    class RemoteSampler < Sampler
      def initialize(connection, root_pids:, interval_s: 0.5)
        super(root_pids: root_pids, interval_s: interval_s)
        @conn = connection
        @stats = []
        @pss = {}
      end

      # WorkerMemory's snapshot of the tree under root_pids on the host
      # (workers: the processes below the roots, or the roots alone), or nil.
      def self.worker_memory(connection, root_pids)
        _, pss = Procfs.parse_snapshot(connection.capture("ROOTS=#{Shellwords.escape(root_pids.join(" "))}; " \
                                                          "#{Procfs::SNAPSHOT_SH}"))
        reads = pss.keys.map { |p| "echo 'MEM #{p}'; cat /proc/#{p}/smaps_rollup 2>/dev/null; " }
        text = connection.capture("#{reads.join}true")
        memory = text.split(/^MEM (?=\d+$)/).filter_map do |block|
          pid, rollup = block.split("\n", 2)
          rollup.to_s.include?("Pss:") ? Procfs.parse_memory_bytes(rollup).merge("pid" => pid.to_i) : nil
        end
        WorkerMemory.from(memory, root_pids)
      end

      # Not read on another host (its sockets' inodes would need its /proc/net
      # too): nil, and Drain waits for an idle CPU alone.
      def held_connections = nil

      # A sample that could not be read (a command that failed or timed out)
      # is skipped, not fatal: the window keeps the samples it has.
      def take
        @stats, @pss = Procfs.parse_snapshot(@conn.capture("ROOTS=#{Shellwords.escape(@root_pids.join(" "))}; " \
                                                           "#{Procfs::SNAPSHOT_SH}"))
        super
      rescue ServiceError => e
        raise if @samples.empty? && !@running

        @missed = e
        @samples.last
      end

      # One snapshot command either way: the CPU comes with the rest.
      def cpu_reading = take.then { |sample| [sample.t_s, sample.cpu_s] }
      def tree_reading = take.then { |sample| [sample.t_s, sample.cpu_s, sample.processes, sample.rss_bytes] }

      def stop
        samples = super
        raise @missed || ServiceError.new("no sample of the server on host #{@conn.host.name}") if samples.compact.empty?

        samples.compact
      end

      private

      def process_stats = @stats
      # The tree from the snapshot's stat lines (the other host's /proc is not this one's).
      def tree_stats = tree_of(@stats)
      # PSS only: the snapshot command does not read USS on the other host.
      def memory_bytes(pid) = @pss[pid] && { "pss_bytes" => @pss[pid] }
      # Nor the threads' run-queue delay.
      def cpu_wait_s(_pid) = nil
    end
  end
end
