# frozen_string_literal: true

module Rackbench
  # The one lookup of programs rackbench runs (load engines, proxies,
  # servers, services, taskset, node): the folders of PATH in order, then
  # those a caller adds (sbin, Debian's versioned PostgreSQL folders).
  #
  #   Executable.find("wrk")                                       # => "/usr/bin/wrk" or nil
  #   Executable.find("haproxy", also_in: Executable::SBIN)        # => "/usr/sbin/haproxy"
  #   Executable.folder_with(%w[initdb postgres], also_in: dirs)   # => the first folder holding both
  #   Executable.version(["wrk", "-v"], /wrk (\S+)/)                # => "4.1.0" or nil
  module Executable
    SBIN = %w[/usr/sbin /sbin].freeze
    VERSION_TIMEOUT_S = 10

    module_function

    # The path of the first executable file called name, or nil.
    def find(name, also_in: [])
      folder = folder_with([name], also_in: also_in)
      folder && File.join(folder, name)
    end

    def available?(name, also_in: []) = !find(name, also_in: also_in).nil?

    # The first folder holding every one of names as an executable file, or nil.
    def folder_with(names, also_in: [])
      folders(also_in).find { |dir| names.all? { |name| runnable?(File.join(dir, name)) } }
    end

    def folders(also_in = []) = ENV.fetch("PATH", "").split(File::PATH_SEPARATOR).reject(&:empty?) + also_in

    def runnable?(path) = File.file?(path) && File.executable?(path)

    # What pattern's first group finds in the output (stdout and stderr) of
    # argv, run through the Supervisor; nil when it cannot run or says nothing.
    def version(argv, pattern)
      Supervisor.run(argv, timeout_s: VERSION_TIMEOUT_S).output[pattern, 1]
    rescue SystemCallError, ServiceError
      nil
    end
  end
end
