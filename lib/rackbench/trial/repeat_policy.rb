# frozen_string_literal: true

module Rackbench
  # How many repeats a cell gets, from a suite's settings (Suite::KEYS):
  # a fixed `repeats: N`, or "auto": at least min_repeats, then more until the
  # 95 % CI of the cell's throughput is within ±precision, capped by
  # max_repeats and by max_cell_s seconds of load. Created by the Runner.
  class RepeatPolicy
    attr_reader :minimum, :deployments, :precision

    def initialize(settings)
      @auto = settings.fetch("repeats", "auto") == "auto"
      @minimum = @auto ? settings.fetch("min_repeats", 3) : settings["repeats"]
      @max_repeats = [settings.fetch("max_repeats", 15), @minimum].max
      @max_cell_s = settings.fetch("max_cell_s", 30)
      @precision = settings.fetch("precision", Measurement::DEFAULT_PRECISION)
      @deployments = [settings.fetch("deployments", 2), @minimum].min
    end

    def auto? = @auto

    # More repeats wanted: rates so far (req/s of each repeat), load_s spent.
    def more?(rates, load_s)
      return false unless auto? && rates.size >= minimum
      return false if rates.size >= @max_repeats || load_s >= @max_cell_s

      Stats.bootstrap_ci(rates).half_width_share > precision
    end

    def capped?(rates, load_s) = rates.size >= @max_repeats || load_s >= @max_cell_s
  end
end
