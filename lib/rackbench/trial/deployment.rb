# frozen_string_literal: true

require "fileutils"

module Rackbench
  # What serves one group of cells: one server process, or N instances of it
  # behind a proxy. Started by the Runner, sampled as one tree, stopped as one.
  #
  #   servers:
  #     - {server: thin, instances: 4, bind: unix, proxy: {proxy: nginx, workers: 3}}
  #
  # With a proxy, each instance gets its own bind, the proxy's config is
  # generated into the group's folder, and load goes to the proxy.
  # Contract of a proxy class (Proxies.fetch(name)):
  #   proxy = klass.new(config)                 # config: the suite's proxy entry
  #   proxy.validate!                           # ConfigError on unknown keys/values
  #   argv = proxy.command(bind:, backends: [Bind], dir:)   # writes its config into dir
  #   proxy.label, proxy.stop_signal, klass.version, klass.unavailable_reason
  class Deployment
    # ready_answers: the requests readiness sent that the deployment answered.
    attr_reader :server, :proxy, :children, :bind, :backends, :ready_answers

    # host: the Hosts::ServerHost it runs on, or nil for this machine: the
    # files written into dir are shipped there before each process starts, and
    # what the processes write there is fetched back after the start, after
    # each window (#collect) and after the stop.
    # rackup: a config.ru served in the app's place (Probe::Wrapper): it
    # replaces the app's path in the server's argv; everything else (folder,
    # bundle, the server's own config) stays the app's.
    def initialize(server, supervisor:, dir:, app:, env: {}, cpus: nil, ready_timeout_s: Readiness::DEFAULT_TIMEOUT_S,
                   ready_path: nil, host: nil, log_root: nil, rackup: nil)
      @host = host
      @log_root = log_root
      @rackup = rackup
      @server = server
      @supervisor = supervisor
      @dir = dir
      @app = app
      @env = env
      @cpus = cpus
      @ready_timeout_s = ready_timeout_s
      @ready_path = ready_path
      @bundle = AppBundle.for(app, gemfile: server.entry_env["BUNDLE_GEMFILE"])
      @children = []
      @ready_answers = 0
      proxy_config = server.config["proxy"]
      @proxy = proxy_config && Proxies.fetch(proxy_config["proxy"]).new(proxy_config)
    end

    def instances = server.config.fetch("instances", 1)

    # A port rackbench chose was taken by another process between choosing and
    # binding: the start is tried again on fresh ports (never for a port the
    # suite names). Thin (EventMachine) says "no acceptor (port is in use or
    # requires root privileges)": a loopback port above 1024 needs no root, so
    # it was in use (a whole-suite run beside a one-core hog saw it once).
    # A readiness check answered by another process that holds the port
    # (check_port_holder) is a port taken too.
    PORT_TAKEN = /Address already in use|EADDRINUSE|no acceptor \(port is in use|held by another process/
    START_ATTEMPTS = 3

    # Starts every instance at once, waits until each answers HTTP, then starts
    # the proxy in front of them (4 thin instances took 8.8 s one after another).
    def start
      attempt = 0
      begin
        attempt += 1
        start_once
      rescue ServiceError => e
        raise unless attempt < START_ATTEMPTS && port_taken?(e)

        retry
      end
    end

    def port_taken?(error)
      chosen = server.config["port"].nil? && (proxy.nil? || proxy.config["port"].nil?)
      chosen && "#{error.message}\n#{error.log_tail}".match?(PORT_TAKEN)
    end

    def start_once
      started_s = Process.clock_gettime(Process::CLOCK_MONOTONIC)
      started = Array.new(instances) { |i| start_instance(i) }
      @boot_sampler = Sampler.new(root_pids: children.map(&:pid)).start if local?
      started.each do |child, bind|
        Readiness.wait(ready_target(bind), child: child, timeout_s: @ready_timeout_s, app_dir: app_dir, log_root: @log_root)
        check_port_holder(bind, child, [child.pid, *server.extra_pids(child)])
        @ready_answers += 1
      end
      @boot_sampler&.take # ready: the workers have forked (at the sampler's own 0.5 s pace, as a window's, otherwise)
      check_allocator if local?
      @backends = started.map(&:last)
      @bind = proxy ? start_proxy(@backends) : @backends.first
      collect
      @boot_s = (Process.clock_gettime(Process::CLOCK_MONOTONIC) - started_s).round(3)
      self
    rescue ServiceError
      stop
      raise
    end

    def alive? = children.all?(&:alive?)

    # Why child stopped serving, with the app's own error and its log's path
    # relative to the results folder (log_root).
    def exit_reason(child) = ExitReason.new(child, app_dir: app_dir, log_root: @log_root)
    def app_dir = File.dirname(File.expand_path(@app))
    def dead_child = children.find { |c| !c.alive? }
    # Roots of what the Sampler measures: each child, and the processes an
    # adapter knows it started outside its tree (Passenger's watchdog).
    def pids = children.flat_map { |c| c.name.start_with?("proxy") ? [c.pid] : [c.pid, *server.extra_pids(c)] }
    def commands = children.map(&:argv)

    # What the Window samples: the tree on this machine, or on the server's host over SSH.
    def local? = @host.nil?

    # The samples of the server's tree from its start (local servers): taken
    # once, by the first measured window (Window), which stores them ahead of
    # its own; nil after that, or for a server on another host.
    # Seconds from the start to every process answering (the proxy's too):
    # taken once, by the first measured window (Window), which stores it
    # (resources["boot_s"], read back by BootHistory); nil after that.
    def take_boot_s
      boot_s = @boot_s
      @boot_s = nil
      boot_s
    end

    def boot_samples
      sampler = @boot_sampler
      @boot_sampler = nil
      sampler&.stop
    end

    def sampler = @host ? @host.sampler(remote_pids) : Sampler.new(root_pids: pids)

    # The memory of each worker now (WorkerMemory), on this machine or the server's host.
    def worker_memory = @host ? @host.worker_memory(remote_pids) : WorkerMemory.new(root_pids: pids).snapshot

    # What the processes on the server's host wrote in the deployment's
    # folder there (probe records, their own logs), copied into dir.
    def collect = @host&.fetch(@dir)

    def target(path) = bind.target(path)

    # The version of the server gem that boots: the app's Gemfile.lock under
    # its bundle, else rackbench's own.
    def server_version = (@bundled && @bundle.version(server.class.gem_name.to_s)) || server.class.version

    # Provenance of the app's bundle (gemfile, lock digest, Ruby, gems), or nil.
    def app_bundle = @bundle&.to_h

    # The proxy first, then each instance through its adapter's #stop (Passenger
    # needs `passenger stop`: its watchdog leaves the process group).
    def stop
      boot_samples
      stopped = children.any?
      proxies, instances = children.reverse.partition { |c| c.name.start_with?("proxy") }
      proxies.each { |c| @supervisor.stop(c, signal: proxy.stop_signal) }
      stop_instances(instances)
      children.clear
      collect_quietly if stopped
    end

    private

    # Local instances stop side by side, each waiting for its own exit: one
    # after another, thin x5 (a Rails app each) behind nginx took 5.6 s to
    # stop at load 15, thin x4 4.1 to 5.1 s. A host's are stopped in turn
    # over its one connection. An instance whose stop raised is stopped like
    # the others first, then the first error is raised.
    def stop_instances(instances)
      return instances.each { |c| server.stop(@supervisor, c) } if instances.size < 2 || !local?

      SideBySide.each(instances) { |c| server.stop(@supervisor, c) }
    end

    # The last logs of a deployment on a host; a host that cannot be reached keeps them.
    def collect_quietly
      collect
    rescue ServiceError
      nil
    end

    # The group ids of the processes on the server's host (Hosts::Wrapper prints each).
    def remote_pids = children.filter_map { |c| Hosts::Wrapper.remote_pid(File.read(c.log_path)) }

    def start_instance(index)
      dir = instances > 1 ? File.join(@dir, "instance-#{index + 1}").tap { |d| FileUtils.mkdir_p(d) } : @dir
      bind = server.bind(dir)
      bind = Servers::Base::Bind.new(port: bind.port, host: @host.address) if @host
      argv = server.command(app: @app, bind: bind, dir: dir)
      argv = argv.map { |a| a == @app ? @rackup : a } if @rackup
      env = server.env.merge(@env).merge(server.entry_env)
      env = @bundle.env.merge(env) if @bundle
      env = server.yjit_env(env)
      # A gem's executable run by this Ruby goes through the app's bundle; servers
      # started otherwise (JRuby, Passenger, a command) only get its BUNDLE_GEMFILE.
      if @bundle && server.class.gem_name && argv.first == RbConfig.ruby
        @bundle.check!(server.class.gem_name)
        argv = @bundle.wrap(argv)
        @bundled = true
      end
      argv = server.allocator_argv(argv)
      child = spawn(argv, server.label, File.join(dir, "server.log"), env, File.dirname(@app))
      [child, bind]
    end

    def start_proxy(backends)
      bind = proxy.bind(@dir)
      bind = Servers::Base::Bind.new(port: bind.port, host: @host.address) if @host
      argv = proxy.command(bind: bind, backends: backends, dir: @dir)
      child = spawn(argv, "proxy #{proxy.label}", File.join(@dir, "proxy.log"), {}, @dir)
      Readiness.wait(bind.target, child: child, timeout_s: @ready_timeout_s, log_root: @log_root)
      check_port_holder(bind, child, [child.pid])
      @ready_answers += 1
      bind
    end

    # The readiness check was answered by child's own tree, not by another
    # process that took the port between rackbench choosing it and child
    # binding it: a JVM binds 10-30 s after its start on a loaded machine, and
    # a whole-suite run saw Trinidad's check answered by another test's server
    # (the same app), then Trinidad die of "Address already in use" during the
    # load. Raised as a port taken, so a port rackbench chose is chosen again.
    def check_port_holder(bind, child, roots)
      return unless local? && !bind.unix?

      others = Procfs.foreign_listeners(bind.port, Sampler.new(root_pids: roots).tree_pids)
      return if others.empty?

      holders = others.map { |pid| pid ? "pid #{pid}, #{Procfs.process_stat(pid)&.comm}" : "a process not readable here" }
      raise ServiceError.new("#{child.name}: port #{bind.port} is held by another process (#{holders.join("; ")}), " \
                             "which answered the readiness check", log_tail: child.log_tail)
    end

    # malloc: jemalloc is in use only where the library is mapped: in every
    # process of every instance's tree (puma's workers among them).
    def check_allocator
      roots = children.flat_map { |c| [c.pid, *server.extra_pids(c)] }
      problem = server.allocator_problem(Sampler.new(root_pids: roots).tree_pids)
      raise ServiceError.new("#{server.label}: #{problem}", log_tail: children.map(&:log_tail).join("\n")) if problem
    end

    def ready_target(bind) = @ready_path ? bind.target(@ready_path) : bind.target

    def spawn(argv, name, log_path, env, chdir)
      child = if @host
                @host.ship(@dir)
                @host.spawn(argv, name: name, log_path: log_path, env: env, chdir: chdir)
              else
                @supervisor.spawn(argv, name: name, log_path: log_path, env: env, chdir: chdir, cpus: @cpus)
              end
      @children << child
      child
    end
  end
end
