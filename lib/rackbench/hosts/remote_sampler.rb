# frozen_string_literal: true

module Rackbench
  module Hosts
    # The Sampler of a server tree on another host: the same readings (RSS,
    # PSS from smaps_rollup, CPU, processes, threads) from the host's /proc,
    # read over the run's SSH connection in one short command per sample:
    # every process's stat line, then the Pss of the tree under the roots
    # (found there by awk). Assumes the host's clock tick and page size are
    # this machine's (both are the Linux defaults).
    #
    #   RemoteSampler.new(connection, root_pids: [4242]).start ... .stop  # => [Sampler::Sample]
    class RemoteSampler < Sampler
      SCRIPT = <<~'SH'
        cd /proc || exit 0
        stats=$(for p in [0-9]*; do read -r s < "$p/stat" 2>/dev/null && echo "$s"; done)
        echo "$stats"
        tree=$(echo "$stats" | awk -v roots="$ROOTS" '
          BEGIN { n = split(roots, r, " "); for (i = 1; i <= n; i++) want[r[i]] = 1 }
          { s = $0; sub(/^[0-9]+ \(.*\) /, "", s); split(s, f, " "); ppid[$1] = f[2]; pids[++k] = $1 }
          END { more = 1
                while (more) { more = 0
                  for (i = 1; i <= k; i++) { p = pids[i]; if (!(p in want) && (ppid[p] in want)) { want[p] = 1; more = 1 } } }
                for (p in want) if (p in ppid) print p }')
        for p in $tree; do echo "PSS $p $(grep -m1 '^Pss:' "/proc/$p/smaps_rollup" 2>/dev/null)"; done
      SH

      def initialize(connection, root_pids:, interval_s: 0.5)
        super(root_pids: root_pids, interval_s: interval_s)
        @conn = connection
        @files = {}
      end

      # A sample that could not be read (a command that failed or timed out)
      # is skipped, not fatal: the window keeps the samples it has.
      def take
        @files = snapshot
        super
      rescue ServiceError => e
        raise if @samples.empty? && !@running

        @missed = e
        @samples.last
      end

      def stop
        samples = super
        raise @missed || ServiceError.new("no sample of the server on host #{@conn.host.name}") if samples.compact.empty?

        samples.compact
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
        lines = @conn.capture("ROOTS=#{Shellwords.escape(@root_pids.join(" "))}; #{SCRIPT}").lines
        files = lines.grep(/\A\d+ \(.*\) /).to_h { |line| ["/proc/#{line.to_i}/stat", line] }
        lines.grep(/\APSS \d+ Pss:/).each do |line|
          _, pid, rest = line.split(" ", 3)
          files["/proc/#{pid}/smaps_rollup"] = rest
        end
        files
      end
    end
  end
end
