# frozen_string_literal: true

require "fileutils"

module Rackbench
  # One server config on trial: deployed, its answers held to the one
  # AnswerRule, its load measured in windows. The only path to a running
  # server: the Runner takes a Trial per server config and deployment,
  # Tune::Tuner one per config it tries, Apps::Verification (`rackbench
  # verify`), CLI::Servers::Probe (`servers --probe`), Init::Starter
  # (`rackbench init`) and bench/workloads one each; each is a loop over it.
  #
  #   trial = Trial.new(server, supervisor: sup, dir: dir, app: Apps.path("rack"), window: window,
  #                             rule: AnswerRule.new(catalogue: true)).start   # ServiceError if it never gets ready
  #   trial.answer(request)                       # => Trial::Answer (status, problems, ...), never raises
  #   trial.verify!(endpoint)                     # each request of the endpoint once; ServiceError on a wrong answer
  #   trial.drain(path: "/hello", timeout_s: 30)  # calibrated once, on the idle server
  #   repeat = trial.measure(load, dir: dir)      # one window (drained first): a Measurement::Repeat
  #   trial.stop
  class Trial
    # One request's answer and what the rule found wrong with it (status nil: no answer).
    Answer = Struct.new(:request, :status, :headers, :body, :duration_s, :problems, keyword_init: true) do
      def ok? = problems.empty?
      def to_s = "#{request.method} #{request.path}: #{problems.join("; ")}"
    end

    DEFAULT_TIMEOUT_S = 10

    attr_reader :server, :dir, :deployment, :rule

    # window: the Window that measures (nil for a trial that only checks);
    # rule: the AnswerRule (default: any 2xx or 3xx, or the request's own
    # expectation); explain: serve the app inside the probe (Probe::Wrapper),
    # whose records each window reads; queue_corrections_us: the probe's
    # clock corrections for load from other hosts (Hosts::Fleet); the other options are the
    # Deployment's (env, cpus, ready_timeout_s, ready_path, host, log_root).
    def initialize(server, supervisor:, dir:, app:, window: nil, rule: AnswerRule.new, explain: false, queue_corrections_us: {},
                   **deployment_options)
      @server = server
      @supervisor = supervisor
      @dir = dir
      @app = app
      @window = window
      @rule = rule
      @explain = explain
      @queue_corrections_us = queue_corrections_us
      @deployment_options = deployment_options
      @verified = {}
      @answered = 0
    end

    # Deploys the config and waits until it is ready. Raises ServiceError
    # (with the log tail), having stopped what it started, if it never is.
    def start
      FileUtils.mkdir_p(dir)
      rackup = @explain ? Probe::Wrapper.write(app: @app, dir: dir, queue_corrections_us: @queue_corrections_us) : nil
      @probe_dir = rackup && Probe::Wrapper.probe_dir(dir)
      @deployment = Deployment.new(server, supervisor: @supervisor, dir: dir, app: @app, rackup: rackup,
                                           **@deployment_options).start
      self
    end

    def target(path) = deployment.target(path)
    def alive? = deployment.alive?
    def pids = deployment.pids
    def commands = deployment.commands
    def server_version = deployment.server_version
    def log_tail = deployment.children.map(&:log_tail).reject(&:empty?).join("\n")

    # The request sent once as the load sends it (method, headers, body) and
    # its answer held to the rule; a connection that fails is an answer
    # without a status.
    def answer(request, timeout_s: DEFAULT_TIMEOUT_S)
      started = now
      status, headers, body = request.perform(target(request.path), timeout_s: timeout_s)
      @answered += 1
      Answer.new(request: request, status: status, headers: headers, body: body, duration_s: now - started,
                 problems: @rule.problems(request, status, headers, body))
    rescue SystemCallError, IOError => e
      Answer.new(request: request, headers: {}, body: "", duration_s: now - started, problems: ["no answer: #{e.message}"])
    end

    # Raises ServiceError, with the server's log tail, unless request is answered right.
    def check!(request, timeout_s: DEFAULT_TIMEOUT_S)
      answer = answer(request, timeout_s: timeout_s)
      raise ServiceError.new("verify #{answer}", log_tail: log_tail) unless answer.ok?

      answer
    end

    # Every request of the endpoint (a mix: each member) checked, once per
    # trial and endpoint name: a deployment is checked before it is measured.
    def verify!(endpoint, timeout_s: DEFAULT_TIMEOUT_S)
      @verified[endpoint["name"]] ||= Traffic.new(endpoint).requests.each { |r| check!(r, timeout_s: timeout_s) }
    end

    # The Drain that runs before each window: calibrated on the first call
    # (the idle server's probe latency), the same one afterwards.
    def drain(path:, timeout_s:)
      @drain ||= Drain.new(deployment, path: path, timeout_s: timeout_s).calibrate
    end

    # One measured window of load (drained first once #drain was called; with
    # explain, the probe's records of it too); neighbours: pids of the trials
    # running beside this one; dependencies: what the app depends on (Dependency).
    # drained: true when the caller drained the server just before (a duet
    # drains every partner first, then loads them all at once).
    # partners, start_line: a duet's (Window#measure).
    # The deployment's first window also records what the server answered
    # before it (#served_before).
    def measure(load, dir:, neighbours: [], dependencies: [], log_name: nil, partners: [], drained: false, start_line: nil)
      repeat = @window.measure(deployment, load, dir: dir, drain: drained ? nil : @drain, neighbours: neighbours,
                                                 dependencies: dependencies, log_name: log_name, probe_dir: @probe_dir,
                                                 partners: partners, start_line: start_line)
      repeat.resources["served_before"] = served_before(load, repeat.result) unless @measured
      @measured = true
      repeat
    end

    # What reached the server between its start and its first window, so a
    # reader knows what warmed it: rackbench's own requests, counted (the
    # readiness answers, the checks of its answers, the drain's probes), and
    # the warm-up's seconds of load with the responses the engine counted in
    # them (an engine that cuts the warm-up from its run, as the native one
    # does), else those estimated at the window's rate.
    def served_before(load, result)
      warmup_s = load.warmup_s.to_f
      warm = if result.warmup_requests then { "warmup_requests" => result.warmup_requests }
             else { "warmup_requests_estimate" => (warmup_s * result.requests_per_s.to_f).round }
             end
      { "readiness" => deployment.ready_answers, "checks" => @answered, "drain_probes" => @drain&.probes.to_i,
        "warmup_s" => warmup_s, **warm }
    end

    def stop
      deployment&.stop
    end

    private

    def now = Process.clock_gettime(Process::CLOCK_MONOTONIC)
  end
end
