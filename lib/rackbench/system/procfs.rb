# frozen_string_literal: true

module Rackbench
  # Linux's /proc, read and parsed in one place (proc(5)). This file: the
  # processes (a stat line as a ProcessStat, PSS from smaps_rollup, the
  # environment and command line); procfs/machine.rb: the machine (CPU time
  # per CPU as CpuTimes, the one definition of "busy", the load average, the
  # CPUs this process may use). Readers of another host's /proc (Hosts) run
  # SNAPSHOT_SH or read /proc/stat's text there and parse it with the
  # functions here. Needs nothing else of rackbench, so the watchdog's guard
  # process loads it alone (through ProcessTable). Times in seconds (clock
  # ticks / CLOCK_TICKS), memory in bytes.
  #
  #   Procfs.process_stat(pid)   # => ProcessStat(pid, state, ppid, pgrp, session, cpu_s, threads, rss_bytes, ...)
  #   Procfs.process_stats       # => a ProcessStat per process
  #   Procfs.cpu_times([0, 1])   # => { 0 => CpuTimes, 1 => CpuTimes }
  module Procfs
    CLOCK_TICKS = 100 # sysconf(_SC_CLK_TCK) on Linux
    PAGE_BYTES = 4096
    DIR = "/proc"

    # The fields of /proc/PID/stat that rackbench reads. cpu_s: its own time
    # plus that of its reaped children (utime + stime + cutime + cstime), so
    # a worker that exits (a refork, a respawn) keeps counting through the
    # parent that reaped it. start_ticks: clock ticks after boot at which it
    # started.
    # comm: the command name (at most 15 characters); processor: the CPU it last ran on.
    ProcessStat = Struct.new(:pid, :state, :ppid, :pgrp, :session, :cpu_s, :threads, :rss_bytes, :start_ticks,
                             :comm, :processor, keyword_init: true) do
      def zombie? = state == "Z"
    end

    # Prints, on a host reached by a shell, every process's stat line, then
    # "PSS PID Pss: N kB" for each process of the tree under $ROOTS (pids
    # separated by spaces): what a Sampler reads, in one command. Parsed by
    # .parse_snapshot.
    SNAPSHOT_SH = <<~'SH'
      cd /proc || exit 0
      stats=$(for p in [0-9]*; do { read -r s < "$p/stat"; } 2>/dev/null && echo "$s"; done)
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

    module_function

    def pids(proc_dir = DIR)
      Dir.each_child(proc_dir).filter_map { |entry| entry.to_i if entry.match?(/\A\d+\z/) }
    end

    # The ProcessStat of pid, or nil if it is gone.
    def process_stat(pid, proc_dir = DIR)
      text = read("#{proc_dir}/#{pid}/stat")
      text && parse_process_stat(text)
    end

    # A ProcessStat per process of proc_dir.
    def process_stats(proc_dir = DIR)
      pids(proc_dir).filter_map { |pid| process_stat(pid, proc_dir) }
    end

    # One line of /proc/PID/stat: "pid (comm) state ppid pgrp session ...";
    # comm may hold spaces and parentheses, so the fields start after the last ")".
    def parse_process_stat(line)
      fields = line[(line.rindex(")") + 2)..].split
      ProcessStat.new(pid: line.to_i, state: fields[0], ppid: fields[1].to_i, pgrp: fields[2].to_i,
                      session: fields[3].to_i, cpu_s: fields[11..14].sum(&:to_i).fdiv(CLOCK_TICKS),
                      threads: fields[17].to_i, start_ticks: fields[19].to_i, rss_bytes: fields[21].to_i * PAGE_BYTES,
                      comm: line[(line.index("(") + 1)...line.rindex(")")], processor: fields[36]&.to_i)
    end

    # Proportional set size of pid (smaps_rollup), or nil if unreadable.
    def pss_bytes(pid, proc_dir = DIR)
      text = read("#{proc_dir}/#{pid}/smaps_rollup")
      text && parse_pss_bytes(text)
    end

    # {"rss_bytes", "pss_bytes", "uss_bytes"} of pid from smaps_rollup (USS: its private pages,
    # Private_Clean + Private_Dirty: what ending it would free), or nil if unreadable.
    def process_memory_bytes(pid, proc_dir = DIR)
      text = read("#{proc_dir}/#{pid}/smaps_rollup") or return nil
      parse_memory_bytes(text)
    end

    # An smaps_rollup's RSS, PSS and USS (private clean + dirty) in bytes.
    def parse_memory_bytes(text)
      kb = ->(field) { text[/^#{field}:\s+(\d+) kB/, 1].to_i * 1024 }
      { "rss_bytes" => kb.call("Rss"), "pss_bytes" => kb.call("Pss"),
        "uss_bytes" => kb.call("Private_Clean") + kb.call("Private_Dirty") }
    end

    def parse_pss_bytes(text)
      kb = text[/^Pss:\s+(\d+) kB/, 1]
      kb && (kb.to_i * 1024)
    end

    # SNAPSHOT_SH's output: [[ProcessStat, ...], { pid => pss_bytes }].
    def parse_snapshot(text)
      lines = text.lines
      stats = lines.grep(/\A\d+ \(.*\) /).map { |line| parse_process_stat(line) }
      pss = lines.grep(/\APSS \d+ Pss:/).to_h do |line|
        _, pid, rest = line.split(" ", 3)
        [pid.to_i, parse_pss_bytes(rest)]
      end
      [stats, pss]
    end

    # Seconds pid's threads have spent runnable but waiting for a CPU (the
    # second field of each /proc/PID/task/TID/schedstat: the scheduler's
    # run-queue delay), or nil where the kernel does not keep it. A server
    # that answers nothing while this grows by the window's length was
    # starved of its CPU; one whose wait stays small stalled on its own.
    def run_queue_wait_s(pid, proc_dir = DIR)
      files = Dir["#{proc_dir}/#{pid}/task/*/schedstat"]
      waits = files.filter_map { |f| read(f)&.split&.at(1) }.map(&:to_i)
      waits.empty? ? nil : waits.sum / 1e9
    end

    # pid's environment variable name, or nil (also when unreadable).
    def environ_value(pid, name, proc_dir = DIR)
      text = File.binread("#{proc_dir}/#{pid}/environ")
      text[/(?:\A|\0)#{Regexp.escape(name)}=([^\0]*)\0/, 1]
    rescue SystemCallError
      nil
    end

    # pid's command line joined by spaces, or nil if it is gone.
    def command_line(pid, proc_dir = DIR)
      File.binread("#{proc_dir}/#{pid}/cmdline").split("\0").join(" ")
    rescue SystemCallError
      nil
    end

    # The files mapped into pid's memory (/proc/PID/maps: its libraries
    # among them), or nil if it is gone.
    def mapped_files(pid, proc_dir = DIR)
      text = read("#{proc_dir}/#{pid}/maps")
      text && text.lines.filter_map { |line| line.split(" ", 6)[5]&.strip }.select { |f| f.start_with?("/") }.uniq
    end

    def read(path)
      File.read(path)
    rescue SystemCallError
      nil
    end
  end
end

require_relative "procfs/machine"
require_relative "procfs/sockets"
require_relative "procfs/tree"
