# frozen_string_literal: true

module Rackbench
  # How many server starts and windows a cell gets, from a suite's settings
  # (Suite::KEYS). A server start (a fresh deployment), not a window, is the
  # unit of noise (StartSample), so precision is bought with starts:
  #
  # - auto (default): a first stage of `deployments` starts with `windows`
  #   windows each; then, once, the number of starts the block needs is
  #   decided from the spread of those first starts (Stein's two-stage
  #   procedure): enough for the throughput interval of every cell of the
  #   block to be within ±precision, at most `max_deployments` starts and
  #   `max_cell_s` seconds of load a cell. Deciding once, from the first
  #   stage only, keeps the interval's level true (StartSample#interval with
  #   first_stage:), where stopping whenever an interval happens to look
  #   narrow would not.
  # - fixed `repeats: N`: N windows spread over `deployments` starts.
  #
  # Created by the Runner; `rackbench calibrate` measures what these settings
  # give on the machine at hand.
  class RepeatPolicy
    attr_reader :starts, :windows, :max_starts, :precision, :max_cell_s, :level

    def initialize(settings, level: Stats::LEVEL)
      setting = ->(key) { settings[key] || Suite::KEYS.fetch(key).default }
      @auto = settings.fetch("repeats", "auto") == "auto"
      @fixed = @auto ? nil : Integer(settings["repeats"])
      @starts = @auto ? setting.call("deployments") : [setting.call("deployments"), @fixed].min
      @windows = setting.call("windows")
      @max_starts = [setting.call("max_deployments"), @starts].max
      @max_cell_s = setting.call("max_cell_s")
      @precision = setting.call("precision")
      @load_s_per_start = (setting.call("duration_s").to_f +
                           [setting.call("warmup_s").to_f, Runner::SHORT_WARMUP_S].min) * @windows
      @level = level
    end

    def auto? = @auto

    # The windows start `epoch` (1-based) takes in the first stage; 0 after it
    # in fixed mode; `windows` in any extra start of auto mode.
    def windows_in_start(epoch)
      return @windows if auto?
      return 0 if epoch > @starts

      (@fixed / @starts) + (epoch <= @fixed % @starts ? 1 : 0)
    end

    # Windows a cell gets at least: the first stage's, or the fixed number.
    def minimum_windows = auto? ? @starts * @windows : @fixed

    # The first stage's size, for StartSample#interval(first_stage:); nil in fixed mode.
    def first_stage = auto? ? @starts : nil

    # Seconds of load one start costs a cell: its windows, each after the
    # Runner's short re-warm-up (the start's own warm-up is not counted).
    attr_reader :load_s_per_start

    # How many starts a block needs in all, decided after the first stage:
    # samples are the block's cells' StartSamples (of throughput) over the
    # first stage; at most max_deployments starts and max_cell_s of load.
    def starts_needed(samples, load_s_per_start: self.load_s_per_start)
      return @starts unless auto?

      wanted = samples.map { |sample| stein_starts(sample) }.max || @starts
      by_time = load_s_per_start.positive? ? (@max_cell_s / load_s_per_start).floor : @max_starts
      wanted.clamp(@starts, [@max_starts, by_time, @starts].sort[1])
    end

    # What a run's settings mean, in one sentence (progress and reports).
    def to_s
      return "#{@fixed} window#{"s" unless @fixed == 1} over #{@starts} server start#{"s" unless @starts == 1}" unless auto?

      "#{@starts} server starts x #{@windows} window#{"s" unless @windows == 1}, then more starts (at most #{@max_starts}, " \
        "#{format("%g", @max_cell_s)} s of load a cell) until the throughput interval is within " \
        "±#{format("%g", @precision * 100)} %"
    end

    # Stein: n = (t * s / h)^2 starts give a half-width of at most h (on the
    # log scale, h = ln(1 + precision)), s being the first stage's spread.
    def stein_starts(sample)
      return @starts if sample.starts < 2

      spread = Stats.stddev(sample.start_logs.first(@starts))
      half = Math.log(1 + precision)
      ((StudentT.critical(level, [sample.starts, @starts].min - 1) * spread / half)**2).ceil
    end
  end
end
