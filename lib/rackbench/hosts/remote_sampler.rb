# frozen_string_literal: true

module Rackbench
  module Hosts
    # The Sampler of a server tree on another host: the same readings (RSS,
    # PSS from smaps_rollup, CPU, processes, threads) from the host's /proc,
    # read over the run's SSH connection, two short commands per sample (every
    # process's stat line, then the tree's Pss). Assumes the host's clock
    # tick and page size are this machine's (both are the Linux defaults).
    #
    #   RemoteSampler.new(connection, root_pids: [4242]).start ... .stop  # => [Sampler::Sample]
    class RemoteSampler < Sampler
      PSS = "grep -m1 '^Pss:'"
      STATS = 'cd /proc && for p in [0-9]*; do read -r s < "$p/stat" 2>/dev/null && echo "$s"; done; true'

      def initialize(connection, root_pids:, interval_s: 0.5)
        super(root_pids: root_pids, interval_s: interval_s)
        @conn = connection
        @files = {}
      end

      def take
        @files = snapshot
        super
      end

      def tree_pids
        stats = @files.filter_map { |path, text| path.end_with?("/stat") && text }
        parents = Hash.new { |h, k| h[k] = [] }
        stats.each { |s| parents[stat_fields(s)[1].to_i] << s.to_i }
        live = stats.map(&:to_i)
        Sampler.descendants(@root_pids.select { |p| live.include?(p) }, parents)
      end

      private

      def read(path) = @files[path]

      # {"/proc/PID/stat" => line, "/proc/PID/smaps_rollup" => "Pss: N kB"} of the host, now.
      def snapshot
        stat_lines = @conn.capture(STATS).lines.grep(/\A\d+ \(.*\) /)
        files = stat_lines.to_h { |line| ["/proc/#{line.to_i}/stat", line] }
        @files = files
        pids = tree_pids
        return files if pids.empty?

        pss = @conn.capture("for p in #{pids.join(" ")}; do echo \"$p $(#{PSS} /proc/$p/smaps_rollup 2>/dev/null)\"; done")
        pss.lines.each do |line|
          pid, rest = line.split(" ", 2)
          files["/proc/#{pid}/smaps_rollup"] = rest if rest&.start_with?("Pss:")
        end
        files
      end
    end
  end
end
