# frozen_string_literal: true

module Rackbench
  # Report formats, one file each in lib/rackbench/reports/, found by name.
  # A report is a pure function of stored results: `rackbench report RUN` re-renders any old run.
  module Reports
    REGISTRY = Registry.new("report format", "reports")

    extend Registry::Facade
  end
end
require_relative "reports/base"
require_relative "reports/parts/grid"
require_relative "reports/parts/mix_breakdown"
require_relative "reports/parts/client_groups"
require_relative "reports/parts/latency_tail"
require_relative "reports/parts/tune_answer"
require_relative "reports/parts/rate_sweep"
require_relative "reports/parts/capacity"
require_relative "reports/parts/served_before"
require_relative "reports/parts/why"
require_relative "reports/parts/failures"
require_relative "reports/parts/regression_report"
require_relative "reports/parts/document"
require_relative "reports/parts/run_document"
require_relative "reports/parts/gate_summary"
