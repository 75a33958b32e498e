# frozen_string_literal: true

require_relative "rackbench/version"

# rackbench: reproducible benchmarks of Ruby web application servers.
#
# The pipeline is measure -> store -> render, each in its own files:
#   Suite (YAML) -> Plan (cells) -> Schedule (order of repeats) -> Runner
#   (Supervisor, Deployment, Window: Drain, Engines, Sampler, Noise) -> Store
#   -> Measurement (+ Stats, Comparison) -> Reports (table, markdown, csv, json, html).
module Rackbench
  # Base class of every error rackbench reports to the user as one clear line,
  # then exits with the class's EXIT_STATUS (the table is in CLI::EXIT_STATUSES).
  class Error < StandardError
    EXIT_STATUS = 2

    def exit_status = self.class::EXIT_STATUS
  end

  # A suite file, a CLI flag or a config value is invalid. Nothing was started.
  class ConfigError < Error; end

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
  autoload :Registry, "rackbench/registry"
  autoload :Target, "rackbench/target"
  autoload :SocketPath, "rackbench/socket_path"
  autoload :Result, "rackbench/result"
  autoload :Supervisor, "rackbench/supervisor"
  autoload :Sampler, "rackbench/sampler"
  autoload :Readiness, "rackbench/readiness"
  autoload :Suite, "rackbench/suite"
  autoload :Plan, "rackbench/plan"
  autoload :Runner, "rackbench/runner"
  autoload :Store, "rackbench/store"
  autoload :Environment, "rackbench/environment"
  autoload :Pinning, "rackbench/pinning"
  autoload :Stats, "rackbench/stats"
  autoload :Measurement, "rackbench/measurement"
  autoload :Comparison, "rackbench/comparison"
  autoload :Regression, "rackbench/regression"
  autoload :Tune, "rackbench/tune"
  autoload :Schedule, "rackbench/schedule"
  autoload :RepeatPolicy, "rackbench/repeat_policy"
  autoload :Window, "rackbench/window"
  autoload :Drain, "rackbench/drain"
  autoload :Noise, "rackbench/noise"
  autoload :Procfs, "rackbench/procfs"
  autoload :ProcessTable, "rackbench/process_table"
  autoload :Watchdog, "rackbench/watchdog"
  autoload :Orphans, "rackbench/orphans"
  autoload :ResultsFolder, "rackbench/results_folder"
  autoload :Port, "rackbench/port"
  autoload :Hosts, "rackbench/hosts"
  autoload :Resume, "rackbench/resume"
  autoload :Servers, "rackbench/servers"
  autoload :Proxies, "rackbench/proxies"
  autoload :Services, "rackbench/services"
  autoload :Deployment, "rackbench/deployment"
  autoload :AppBundle, "rackbench/app_bundle"
  autoload :Request, "rackbench/request"
  autoload :Traffic, "rackbench/traffic"
  autoload :OwnApp, "rackbench/own_app"
  autoload :Engines, "rackbench/engines"
  autoload :Reports, "rackbench/reports"
  autoload :Apps, "rackbench/apps"
end
