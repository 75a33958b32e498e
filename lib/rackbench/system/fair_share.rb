# frozen_string_literal: true

require "fileutils"

module Rackbench
  # Equal CPU shares for server trees measured at the same time (duet:
  # Bulej et al., "Duet benchmarking", ICPE 2020): each tree goes into a CPU
  # cgroup of its own with the same weight, so two servers loaded at once on
  # one CPU set get half of it each, whatever their thread counts (the
  # scheduler shares among threads otherwise: puma's 16 threads against
  # thin's one would get 16/17 of the CPU). Works with cgroup v1's cpu
  # controller (cpu.shares) or v2's (cpu.weight); elsewhere #available? is
  # false and #reason says why, and a duet runs without fair shares.
  #
  #   share = FairShare.new(slots: 2)
  #   share.assign(0, trial_a.pids)   # the trees of A, then of B
  #   share.assign(1, trial_b.pids)
  #   share.close                     # removes its groups (they are empty once the servers stop)
  #
  # The groups live under the controller's root as rackbench-PID/slot-N, so
  # `ls` shows whose they are; a group left by a rackbench that was killed
  # holds no process and costs nothing.
  class FairShare
    V1 = "/sys/fs/cgroup/cpu"
    V2 = "/sys/fs/cgroup"
    WEIGHT = { v1: ["cpu.shares", "1024"], v2: ["cpu.weight", "100"] }.freeze

    attr_reader :reason

    # Groups a rackbench that is gone left behind (killed before its close):
    # empty, harmless, and removed by `rackbench run --clean` (#remove_leftovers).
    def self.leftovers(roots: [V1, V2])
      roots.flat_map { |root| Dir[File.join(root, "rackbench-*")] }.select do |dir|
        pid = Integer(File.basename(dir).delete_prefix("rackbench-"), exception: false)
        pid && !File.exist?("/proc/#{pid}")
      end
    end

    def self.remove_leftovers(roots: [V1, V2])
      leftovers(roots: roots).each do |dir|
        Dir[File.join(dir, "slot-*")].each { |group| Dir.rmdir(group) }
        Dir.rmdir(dir)
      rescue SystemCallError
        nil # a process still in it: it is not ours to move
      end
    end

    def initialize(slots:, v1_root: V1, v2_root: V2, proc_dir: Procfs::DIR)
      @slots = slots
      @proc_dir = proc_dir
      @kind, @root = detect(v1_root, v2_root)
      @groups = []
    end

    def available? = !@kind.nil?

    # Moves the trees of pids (every descendant too) into slot's group.
    def assign(slot, pids)
      return unless available?

      group = group(slot)
      tree(pids).each { |pid| move(group, pid) }
    end

    # Removes the groups; processes still in one go back to the root first.
    def close
      @groups.each do |group|
        File.read(File.join(group, "cgroup.procs")).split.each { |pid| move(@root, Integer(pid)) }
        Dir.rmdir(group)
      rescue SystemCallError
        nil # a process that would not move (it just exited): the empty group stays, harmless
      end
      Dir.rmdir(base) if available? && Dir.exist?(base) # a cgroup folder goes once its groups have
    rescue SystemCallError
      nil
    end

    def to_s = available? ? "cgroup #{@kind} #{WEIGHT.fetch(@kind).first}" : "no fair shares (#{reason})"

    private

    def detect(v1_root, v2_root)
      return [:v1, v1_root] if writable?(v1_root) && File.exist?(File.join(v1_root, "cpu.shares"))
      return [:v2, v2_root] if File.read(File.join(v2_root, "cgroup.controllers")).split.include?("cpu") && writable?(v2_root)

      @reason = "no writable cpu cgroup controller (cgroup v1 #{v1_root} or v2 with cpu)"
      nil
    rescue SystemCallError
      @reason = "no cgroup file system at #{v1_root} or #{v2_root}"
      nil
    end

    def writable?(dir) = File.directory?(dir) && File.writable?(dir)

    def base = File.join(@root, "rackbench-#{Process.pid}")

    def group(slot)
      path = File.join(base, "slot-#{slot}")
      unless Dir.exist?(path)
        FileUtils.mkdir_p(path)
        enable_v2_cpu if @kind == :v2
        file, weight = WEIGHT.fetch(@kind)
        File.write(File.join(path, file), weight)
        @groups << path
      end
      path
    end

    # cgroup v2 gives a child the cpu controller only when its parent enables it.
    def enable_v2_cpu
      File.write(File.join(base, "cgroup.subtree_control"), "+cpu")
    rescue SystemCallError
      nil
    end

    def move(group, pid)
      File.write(File.join(group, "cgroup.procs"), pid.to_s)
    rescue SystemCallError
      nil # gone meanwhile
    end

    def tree(pids)
      stats = Procfs.process_stats(@proc_dir).to_h { |stat| [stat.pid, stat] }
      children = Hash.new { |h, k| h[k] = [] }
      stats.each_value { |stat| children[stat.ppid] << stat.pid }
      Sampler.descendants(pids.select { |pid| stats.key?(pid) }, children)
    end
  end
end
