# frozen_string_literal: true

module Rackbench
  # A process the app depends on, part of the system under test: its CPU and
  # memory are sampled beside the server's (DependencySampler) and never
  # counted as "other processes" (Noise). A service rackbench starts is one
  # (Dependency.running); one already running is named in the suite:
  #
  #   depends_on:
  #     - {name: postgres, port: 5432}                                    # who listens on this TCP port
  #     - {name: postgres, pid_file: /var/run/postgresql/14-main.pid}     # the pid on the file's first line
  #     - {name: redis, command: redis-server}                           # processes of that command name
  #
  #   dep = Dependency.new("name" => "postgres", "port" => 5432)
  #   dep.root_pids   # => [812]; ServiceError when nothing matches
  class Dependency
    KEYS = %w[name port pid_file command].freeze
    HOW = %w[port pid_file command].freeze
    COMM_CHARS = 15 # the kernel keeps a command name's first 15 characters

    attr_reader :name

    # Why entry is not a dependency, or nil.
    def self.problem(entry)
      return "must be a mapping like {name: postgres, port: 5432}" unless entry.is_a?(Hash)

      unknown = entry.keys - KEYS
      return "unknown key #{unknown.first.inspect} (it takes #{KEYS.join(", ")})" unless unknown.empty?

      how = entry.keys & HOW
      return "needs one of #{HOW.join(", ")} to find the process" unless how.size == 1
      return "port must be a TCP port (1-65535)" if how == ["port"] && !Port.valid?(entry["port"])
      return "#{how.first} must be a string" if how != ["port"] && !(entry[how.first].is_a?(String) && !entry[how.first].empty?)

      entry.key?("name") && !entry["name"].is_a?(String) ? "name must be a string" : nil
    end

    # A dependency whose processes rackbench started (a service): pids are its roots.
    def self.running(name, pids) = new({ "name" => name }, pids: pids)

    def initialize(entry, pids: nil, proc_dir: Procfs::DIR)
      @entry = entry
      @pids = pids
      @proc_dir = proc_dir
      @name = entry["name"] || default_name
    end

    # The roots of the dependency's process trees right now.
    def root_pids
      return @pids if @pids

      found = if @entry["port"] then Procfs.listening_pids(@entry["port"], proc_dir: @proc_dir)
              elsif @entry["pid_file"] then from_pid_file
              else by_command
              end
      raise ServiceError, "depends_on #{name}: #{nothing_found}" if found.empty?

      found
    end

    def to_h = @entry.merge("name" => name)

    private

    def default_name
      return File.basename(@entry["command"]) if @entry["command"]
      return File.basename(@entry["pid_file"], ".pid") if @entry["pid_file"]

      "port #{@entry["port"]}"
    end

    def from_pid_file
      pid = File.file?(@entry["pid_file"]) && File.foreach(@entry["pid_file"]).first.to_i
      pid && Procfs.process_stat(pid, @proc_dir) ? [pid] : []
    rescue SystemCallError
      []
    end

    # The processes of that command name whose parent is not one of them (a
    # postmaster, not each backend it forked).
    def by_command
      comm = File.basename(@entry["command"])[0, COMM_CHARS]
      matching = Procfs.process_stats(@proc_dir).select { |s| s.comm == comm && !s.zombie? }
      ids = matching.map(&:pid)
      matching.reject { |s| ids.include?(s.ppid) }.map(&:pid)
    end

    def nothing_found
      if @entry["port"]
        "nothing this user can see listens on port #{@entry["port"]} (not running, or another user's without root: " \
          "name it by pid_file)"
      elsif @entry["pid_file"] then "no running process in #{@entry["pid_file"]}"
      else
        "no process named #{@entry["command"]} runs"
      end
    end
  end
end
