# frozen_string_literal: true

require_relative "rackbench/version"

# rackbench: reproducible benchmarks of Ruby web application servers.
#
# The pipeline is measure -> store -> render, each in its own files:
#   Suite (YAML) -> Plan (cells) -> Schedule (order of repeats) -> Runner
#   (Trial: Deployment, AnswerRule, Drain, Window; Supervisor, Engines, Sampler,
#   Noise) -> Store
#   -> Measurement (+ Stats, Comparison) -> Reports (table, markdown, csv, json, html).
module Rackbench
  # Base class of every error rackbench reports to the user as one clear line,
  # then exits with the class's EXIT_STATUS (the table is in CLI::EXIT_STATUSES).
  class Error < StandardError
    EXIT_STATUS = 2

    def exit_status = self.class::EXIT_STATUS
  end

  # A suite file, a CLI flag or a config value is invalid. Nothing was started.
  # A value with fields, so no caller reads them back from the message: the
  # key it is about ("threads", or a suite's "servers.0.threads"), the file
  # and line when known, and the problem in words without where it is.
  #
  #   raise ConfigError.new("server puma: unknown key \"treads\"; it takes ...", key: "treads")
  #   rescue ConfigError => e
  #     e.key      # => "treads"
  #     e.problem  # => the message, or what a wrapper said without its place
  class ConfigError < Error
    attr_reader :key, :file, :line, :problem

    def initialize(message = nil, key: nil, file: nil, line: nil, problem: nil)
      super(message)
      @key = key&.to_s
      @file = file
      @line = line
      @problem = problem || message
    end
  end

  # A name (server, engine, report format, suite) is not registered.
  class UnknownName < ConfigError; end

  # A service failed to start, became unready, or died: recorded in the cell;
  # one that the whole run needs ends the run (exit 4).
  class ServiceError < Error
    EXIT_STATUS = 4

    attr_reader :log_tail

    def initialize(message, log_tail: nil)
      super(message)
      @log_tail = log_tail
    end
  end

  # The results folder cannot hold a store (read-only, full, not a folder):
  # said before anything starts (exit 4).
  class StoreError < Error
    EXIT_STATUS = 4
  end

  ROOT = File.expand_path("..", __dir__)

  autoload :CLI, "rackbench/cli"
  autoload :Computed, "rackbench/results/computed"
  autoload :Registry, "rackbench/registry"
  autoload :Target, "rackbench/targets/target"
  autoload :SocketPath, "rackbench/system/socket_path"
  autoload :Result, "rackbench/results/result"
  autoload :WindowRequests, "rackbench/results/window_requests"
  autoload :Supervisor, "rackbench/system/supervisor"
  autoload :Sampler, "rackbench/system/sampler"
  autoload :HeldConnections, "rackbench/system/held_connections"
  autoload :Readiness, "rackbench/trial/readiness"
  autoload :AppError, "rackbench/trial/app_error"
  autoload :ExitReason, "rackbench/trial/exit_reason"
  autoload :Suite, "rackbench/suite"
  autoload :Plan, "rackbench/suite/plan"
  autoload :Preflight, "rackbench/suite/preflight"
  autoload :CellKey, "rackbench/suite/cell_key"
  autoload :Runner, "rackbench/trial/runner"
  autoload :Store, "rackbench/store"
  autoload :Environment, "rackbench/trial/environment"
  autoload :Pinning, "rackbench/system/pinning"
  autoload :Extras, "rackbench/system/extras"
  autoload :Stats, "rackbench/results/stats"
  autoload :Measurement, "rackbench/results/measurement"
  autoload :Comparison, "rackbench/results/comparison"
  autoload :StudentT, "rackbench/results/student_t"
  autoload :StartSample, "rackbench/results/start_sample"
  autoload :Sequential, "rackbench/results/sequential"
  autoload :Multiplicity, "rackbench/results/multiplicity"
  autoload :Verdicts, "rackbench/results/verdicts"
  autoload :Slo, "rackbench/results/slo"
  autoload :Simulation, "rackbench/results/simulation"
  autoload :Calibration, "rackbench/results/calibration"
  autoload :PairedComponents, "rackbench/results/paired_components"
  autoload :Interference, "rackbench/results/interference"
  autoload :ChiSquare, "rackbench/results/chi_square"
  autoload :Trend, "rackbench/results/trend"
  autoload :SteadyWarmup, "rackbench/trial/steady_warmup"
  autoload :Regression, "rackbench/results/regression"
  autoload :Tune, "rackbench/tune"
  autoload :Schedule, "rackbench/suite/schedule"
  autoload :RepeatPolicy, "rackbench/trial/repeat_policy"
  autoload :RunEstimate, "rackbench/trial/run_estimate"
  autoload :BootHistory, "rackbench/trial/boot_history"
  autoload :RunPace, "rackbench/trial/run_pace"
  autoload :ExpectedStarts, "rackbench/trial/expected_starts"
  autoload :MachineLoad, "rackbench/trial/machine_load"
  autoload :StartLine, "rackbench/trial/start_line"
  autoload :Duet, "rackbench/trial/duet"
  autoload :Budget, "rackbench/trial/budget"
  autoload :FairShare, "rackbench/system/fair_share"
  autoload :Jemalloc, "rackbench/system/jemalloc"
  autoload :Window, "rackbench/trial/window"
  autoload :Drain, "rackbench/trial/drain"
  autoload :SteadyBackground, "rackbench/trial/steady_background"
  autoload :Noise, "rackbench/system/noise"
  autoload :Procfs, "rackbench/system/procfs"
  autoload :Executable, "rackbench/system/executable"
  autoload :ProcessTable, "rackbench/system/process_table"
  autoload :Watchdog, "rackbench/system/watchdog"
  autoload :Orphans, "rackbench/system/orphans"
  autoload :ResultsFolder, "rackbench/store/results_folder"
  autoload :Port, "rackbench/system/port"
  autoload :Hosts, "rackbench/hosts"
  autoload :Resume, "rackbench/trial/resume"
  autoload :Servers, "rackbench/targets/servers"
  autoload :Proxies, "rackbench/targets/proxies"
  autoload :Services, "rackbench/targets/services"
  autoload :Deployment, "rackbench/trial/deployment"
  autoload :SideBySide, "rackbench/trial/side_by_side"
  autoload :Trial, "rackbench/trial/trial"
  autoload :AnswerRule, "rackbench/trial/answer_rule"
  autoload :AppBundle, "rackbench/targets/app_bundle"
  autoload :Request, "rackbench/targets/request"
  autoload :Traffic, "rackbench/targets/traffic"
  autoload :OwnApp, "rackbench/targets/own_app"
  autoload :Dependency, "rackbench/targets/dependency"
  autoload :DependencySampler, "rackbench/system/dependency_sampler"
  autoload :Engines, "rackbench/engines"
  autoload :Reports, "rackbench/reports"
  autoload :Apps, "rackbench/targets/apps"
  autoload :Knob, "rackbench/suite/knob"
  autoload :Knobs, "rackbench/targets/knobs"
  autoload :Doctor, "rackbench/doctor"
  autoload :Probe, "rackbench/probe"
  autoload :Versions, "rackbench/trial/versions"
  autoload :WorkerMemory, "rackbench/system/worker_memory"
  autoload :Capacity, "rackbench/results/capacity"
  autoload :Words, "rackbench/words"
end
