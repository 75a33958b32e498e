# frozen_string_literal: true

require "fileutils"

module Rackbench
  # Runs a Plan: start the suite's services, then for each server config:
  # deploy it (instances, proxy) -> wait until ready -> for each cell: verify
  # the endpoint, warm up, load while sampling, record -> stop.
  # Faults (a server that never gets ready, exits, or answers wrongly) become
  # failed cells with their reason and log tail; the suite goes on.
  #
  # The listener gets, in this order: run_started(run, plan), then per cell
  # cell_started(cell) and cell_finished(cell, record), then run_finished(run).
  class Runner
    IDLE_CPU_SHARE = 0.05
    IDLE_TIMEOUT_S = 15

    attr_reader :suite, :plan, :store, :supervisor, :pinning

    def initialize(suite, store:, supervisor: Supervisor.new, listener: nil)
      @suite = suite
      @plan = Plan.new(suite)
      @store = store
      @supervisor = supervisor
      @listener = listener
      @engine = Engines.fetch(suite["engine"]).new
      @pinning = Pinning.choose(enabled: suite["pin"])
    end

    def run
      reason = @engine.unavailable_reason
      raise ConfigError, "engine #{@engine.name}: #{reason}" if reason

      @run = store.create_run(suite: suite, settings: suite.data, machine: machine, pinning: pinning.to_h)
      emit(:run_started, @run, plan)
      status = "interrupted"
      begin
        @service_env = Apps.default_env(@run["dir"]).merge(start_services)
        plan.groups.each { |group| run_group(group) }
        status = "finished"
      ensure
        @services&.each { |s| s.stop(supervisor) }
        supervisor.stop_all
        store.finish_run(@run["id"], status)
      end
      emit(:run_finished, store.run(@run["id"]))
      @run["id"]
    end

    private

    def machine
      Environment.capture.merge("engine" => @engine.name, "engine_version" => @engine.version)
    end

    # Starts the suite's backing services; returns the env vars the app gets.
    def start_services
      @services = []
      (suite["services"] || []).each_with_object({}) do |config, env|
        service = Services.fetch(config["service"]).new(config)
        @services << service
        dir = File.join(@run["dir"], "service-#{config["service"]}")
        FileUtils.mkdir_p(dir)
        env.merge!(service.start(supervisor, dir))
      end
    end

    def run_group(group)
      server = Servers.fetch(group.server_config["server"]).new(group.server_config)
      dir = File.join(@run["dir"], format("%02d-%s", group.server_index + 1, slug(server.label)))
      FileUtils.mkdir_p(dir)
      if (why = unavailable_reason(server))
        return group.cells.each { |cell| fail_cell(cell, server, "#{server.name} cannot run here: #{why}") }
      end

      deployment = nil
      start_failure = nil
      verified = {}
      group.cells.each do |cell|
        emit(:cell_started, cell)
        # A deployment that failed to start fails the group's other cells the same way, at once.
        raise start_failure if start_failure

        unless deployment&.alive?
          deployment&.stop
          deployment = nil
          verified.clear
          begin
            deployment = deploy(server, group, dir)
          rescue ServiceError => e
            start_failure = e
            raise
          end
        end
        run_cell(cell, server, deployment, verified, dir)
      rescue ServiceError, ConfigError => e
        fail_cell(cell, server, e.message, e.respond_to?(:log_tail) ? e.log_tail : nil, deployment, emit_start: false)
      end
    ensure
      deployment&.stop
    end

    def deploy(server, group, dir)
      Deployment.new(server, supervisor: supervisor, dir: dir, app: suite.app_path(*group.server_config["app"]),
                             env: @service_env, cpus: pinning.server_cpus,
                             ready_timeout_s: suite["ready_timeout_s"]).start
    end

    def unavailable_reason(server)
      server.class.unavailable_reason || server.proxy_class&.unavailable_reason
    end

    def run_cell(cell, server, deployment, verified, dir)
      target = deployment.target(cell.endpoint["path"])
      verify(cell.endpoint, target, deployment, cell.server_config["app"] || suite["app"]) unless verified[cell.endpoint["path"]]
      verified[cell.endpoint["path"]] = true
      load = load_for(target, cell)
      cell_dir = File.join(dir, "c#{cell.index}")
      FileUtils.mkdir_p(cell_dir)
      idle_wait_s = warm_up(load, deployment, cell_dir)
      sampler = Sampler.new(root_pids: deployment.pids).start
      begin
        result = @engine.run(load, supervisor: supervisor, dir: cell_dir, cpus: pinning.client_cpus)
      ensure
        samples = sampler.stop
      end
      if (dead = deployment.dead_child)
        raise ServiceError.new("#{dead.name} exited during the load (#{dead.status.inspect})", log_tail: dead.log_tail)
      end
      if result.requests.to_i.zero?
        raise ServiceError, "no request completed in the measured #{result.duration_s} s " \
                            "(#{result.error_count} errors): the server stalled, or duration_s is shorter than one response"
      end

      result.warnings << "warm-up: waited #{idle_wait_s.round(2)} s for the server to go idle" if idle_wait_s&.positive?
      # An engine that warms up inside its run: resources count from the end of the warm-up.
      measured_from_s = @engine.warmup_in_run? ? load.warmup_s.to_f : 0
      record(cell, server, deployment, "ok", result: result, samples: samples, measured_from_s: measured_from_s)
    end

    def load_for(target, cell)
      Engines::Load.new(target: target, concurrency: cell.concurrency, threads: suite["client_threads"],
                        duration_s: suite["duration_s"], warmup_s: suite["warmup_s"],
                        requests: suite["requests"], timeout_s: suite["timeout_s"],
                        rate: suite["rate"], keepalive: suite["keepalive"])
    end

    # Every endpoint is requested once and checked before it is measured:
    # against the suite's expect_status/expect_body, or else, for a bundled
    # app, against the catalogue's expected answer (Apps.expectation).
    def verify(endpoint, target, deployment, app = suite["app"])
      status, headers, body = Readiness.get(target, timeout_s: suite["timeout_s"])
      own_checks = endpoint["expect_status"] || endpoint["expect_body"]
      expectation = Apps.expectation(app, endpoint["path"], @service_env) unless own_checks
      return verify_bundled(endpoint, expectation, status, headers, body) if expectation

      expected = endpoint["expect_status"] || (200..399)
      unless expected === status # rubocop:disable Style/CaseEquality
        raise ServiceError, "verify #{endpoint["path"]}: status #{status}, expected #{expected}: #{body[0, 200].inspect}"
      end
      if endpoint["expect_body"] && !body.include?(endpoint["expect_body"].to_s)
        raise ServiceError, "verify #{endpoint["path"]}: body does not contain " \
                            "#{endpoint["expect_body"].inspect}: #{body[0, 200].inspect}"
      end
    rescue SystemCallError, IOError => e
      raise ServiceError.new("verify #{endpoint["path"]}: #{e.message}", log_tail: deployment.children.first&.log_tail)
    end

    def verify_bundled(endpoint, expectation, status, headers, body)
      problems = expectation.problems(status, headers, body)
      raise ServiceError, "verify #{endpoint["path"]}: #{problems.join("; ")}" unless problems.empty?
    end

    # An engine that cannot cut the warm-up from its own run gets a separate
    # warm-up run; then we wait until the server has gone idle, so no queued
    # requests from the warm-up are served inside the measurement.
    def warm_up(load, deployment, cell_dir)
      return nil if @engine.warmup_in_run? || load.warmup_s.zero?

      warm = load.dup
      warm.duration_s = load.warmup_s
      warm.requests = nil
      begin
        @engine.run(warm, supervisor: supervisor, dir: cell_dir, cpus: pinning.client_cpus, log_name: "warmup.out")
      rescue ServiceError
        nil # a warm-up failure shows again, measured, in the run itself
      end
      wait_idle(deployment.pids)
    end

    def wait_idle(pids)
      sampler = Sampler.new(root_pids: pids)
      started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
      last = sampler.take
      loop do
        sleep 0.1
        sample = sampler.take
        busy = (sample.cpu_s - last.cpu_s) / (sample.t_s - last.t_s).clamp(0.001, nil)
        last = sample
        waited = Process.clock_gettime(Process::CLOCK_MONOTONIC) - started
        return waited if busy < IDLE_CPU_SHARE || waited > IDLE_TIMEOUT_S
      end
    end

    def fail_cell(cell, server, reason, log_tail = nil, deployment = nil, emit_start: true)
      emit(:cell_started, cell) if emit_start
      record(cell, server, deployment, "failed", reason: reason, log_tail: log_tail)
    end

    def record(cell, server, deployment, status, result: nil, samples: [], reason: nil, log_tail: nil, measured_from_s: 0)
      rec = {
        position: cell.index, server: server.name, label: server.label, config: cell.server_config,
        endpoint: cell.endpoint["name"], path: cell.endpoint["path"], concurrency: cell.concurrency,
        engine: @engine.name, status: status, reason: reason, log_tail: log_tail,
        server_version: server.class.version, server_command: deployment&.commands,
        engine_command: result&.command, requests_per_s: result&.requests_per_s,
        latency_mean_us: result&.latency_us&.dig("mean"), latency_p99_us: result&.latency_us&.dig("p99"),
        requests: result&.requests, errors: result&.error_count, result: result&.to_h,
        resources: Sampler.summarize(samples.select { |x| x.t_s >= measured_from_s }), started_at: Time.now.utc.iso8601(3)
      }
      store.add_cell(@run["id"], rec, samples)
      emit(:cell_finished, cell, rec)
    end

    def emit(event, *args)
      @listener&.public_send(event, *args) if @listener.respond_to?(event)
    end

    def slug(text) = text.downcase.gsub(/[^a-z0-9]+/, "-").gsub(/\A-|-\z/, "")
  end
end
