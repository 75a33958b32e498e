# frozen_string_literal: true

module Rackbench
  # How many server starts and windows a cell gets, from a suite's settings
  # (Suite::KEYS). A server start (a fresh deployment), not a window, is the
  # unit of noise (StartSample), so precision is bought with starts:
  #
  # - auto, stopping: sequential (default): starts of `windows` windows each;
  #   after the first `deployments` starts, and after every start from then
  #   on, the block's question is looked at: the fastest config against the
  #   next (#open_cells). A block stops as soon as that comparison is
  #   settled (one side faster, or equivalent within ±margin); a config
  #   already settled as behind the runner-up stops before the others. A
  #   block of one config (it compares nothing) stops when its throughput
  #   interval is within ±precision. Every look is paid for: intervals are
  #   repeated confidence intervals (Sequential), right at their stated
  #   level whenever the run stopped. At most `max_deployments` starts and
  #   `max_cell_s` seconds of load a cell.
  # - auto, stopping: stein (runs stored before the sequential design):
  #   a first stage of `deployments` starts; then, once, the number of starts
  #   the block needs, from that stage's spread (Stein's two-stage procedure).
  # - fixed `repeats: N`: N windows spread over `deployments` starts.
  #
  # Created by the Runner (and Simulation, which stops the same way);
  # `rackbench calibrate` measures what these settings give on the machine.
  class RepeatPolicy
    STOPPING = %w[sequential stein].freeze

    attr_reader :starts, :windows, :max_starts, :precision, :margin, :max_cell_s, :level, :stopping

    # questions: what a sequential look follows instead of each block's
    # leader against its runner-up (a seed run's claims, Article::ClaimLooks:
    # #open_cells of Measurements).
    def initialize(settings, level: Stats::LEVEL, questions: nil)
      @questions = questions
      @follows = questions&.to_s || settings["stopping_follows"]
      setting = ->(key) { settings[key] || Suite::KEYS.fetch(key).default }
      @auto = settings.fetch("repeats", "auto") == "auto"
      @fixed = @auto ? nil : Integer(settings["repeats"])
      @stopping = settings.fetch("stopping", "stein") # runs stored before the key existed were stein's
      @spending = setting.call("spending").to_sym
      # runs stored before the key existed spent equivalence as they spent differences
      @equivalence_spending = settings.fetch("equivalence_spending", @spending).to_sym
      @starts = @auto ? setting.call("deployments") : [setting.call("deployments"), @fixed].min
      @windows = setting.call("windows")
      @max_cell_s = setting.call("max_cell_s")
      @precision = setting.call("precision")
      @margin = setting.call("margin")
      @load_s_per_start = (setting.call("duration_s").to_f +
                           [setting.call("warmup_s").to_f, Runner::SHORT_WARMUP_S].min) * @windows
      @max_starts = if sequential? then [setting.call("max_deployments"), starts_by_time].min.clamp(@starts, nil)
                    else [setting.call("max_deployments"), @starts].max
                    end
      @level = level
    end

    def auto? = @auto

    # Whether looks follow given questions (a seed run's claims), which may
    # compare cells of different blocks, instead of each block's own.
    def questions? = !@questions.nil?
    def sequential? = auto? && stopping == "sequential"

    # The windows start `epoch` (1-based) takes in the first stage; 0 after it
    # in fixed mode; `windows` in any later start of auto mode.
    def windows_in_start(epoch)
      return @windows if auto?
      return 0 if epoch > @starts

      (@fixed / @starts) + (epoch <= @fixed % @starts ? 1 : 0)
    end

    # Windows a cell gets at least: the first stage's, or the fixed number.
    def minimum_windows = auto? ? @starts * @windows : @fixed

    # The first stage's size, for Stein's interval (StartSample.standard_error); nil otherwise.
    def first_stage = auto? && !sequential? ? @starts : nil

    # The repeated-interval design of a sequential run (nil otherwise): what
    # every interval of its cells is computed with (Measurement's sequential:).
    def design
      return nil unless sequential?

      @design ||= Sequential.for(first_look: @starts, max_starts: @max_starts, level: level, spending: @spending,
                                 equivalence_spending: @equivalence_spending)
    end

    # The interval settings a Measurement of this policy's cells takes.
    def interval_options = { precision: precision, first_stage: first_stage, sequential: design }

    # Seconds of load one start costs a cell: its windows, each after the
    # Runner's short re-warm-up (the start's own warm-up is not counted).
    attr_reader :load_s_per_start

    # Sequential: which of a block's cells (ok Measurements, measured over the
    # same starts) need another start. None once the leader's comparison with
    # the runner-up is settled; otherwise those two, and any other whose
    # comparison with the runner-up is not yet settled behind it. A block of
    # one: the cell until its interval is within ±precision.
    def open_cells(measurements)
      return measurements.reject { |m| precise?(m) } if measurements.size < 2

      leader, runner_up, *rest = measurements.sort_by { |m| -m.good_requests_per_s.to_f }
      return [] if settled?(Comparison.new(leader, runner_up, margin: margin))

      [leader, runner_up] + rest.reject { |m| Comparison.new(runner_up, m, margin: margin).verdict == :a_better }
    end

    # Sequential: the cells (Plan cells; repeats_of gives each one's windows
    # so far) that a look after this start finds no longer needed. With
    # questions, those no open question reads; others: the run's other cells
    # that have not failed, which a question may compare with these.
    def settled_cells(cells, repeats_of, others: [])
      looked = (@questions ? cells | others : cells).to_h { |cell| [measured(cell, repeats_of), cell] }
      open = @questions ? @questions.open_cells(looked.keys.select(&:ok?)) : open_cells(looked.keys.select(&:ok?))
      cells - open.map { |m| looked[m] }
    end

    # What a sequential look follows, in words (a run stores it: settings "stopping_follows").
    def follows = @follows || "the fastest config against the next"

    # Stein (stopping: stein): how many starts a block needs in all, decided
    # after the first stage from its cells' StartSamples (of throughput).
    def starts_needed(samples, load_s_per_start: self.load_s_per_start)
      return @starts unless auto?

      wanted = samples.map { |sample| stein_starts(sample) }.max || @starts
      by_time = starts_by_time(load_s_per_start)
      wanted.clamp(@starts, [@max_starts, by_time.infinite? ? @max_starts : by_time, @starts].sort[1])
    end

    # What a run's settings mean, in one sentence (progress and reports).
    def to_s
      return "#{@fixed} window#{"s" unless @fixed == 1} over #{@starts} server start#{"s" unless @starts == 1}" unless auto?
      return stein_text unless sequential?

      "server starts of #{@windows} window#{"s" unless @windows == 1}, the question looked at after #{@starts} and " \
        "every start after, until #{follows} is settled (faster, or equivalent within " \
        "±#{pct(@margin)}; a lone config: its throughput within ±#{pct(@precision)}); at most #{@max_starts} starts " \
        "(#{format("%g", @max_cell_s)} s of load a cell)"
    end

    # Stein: n = (t * s / h)^2 starts give a half-width of at most h (on the
    # log scale, h = ln(1 + precision)), s being the first stage's spread.
    def stein_starts(sample)
      return @starts if sample.starts < 2

      spread = Stats.stddev(sample.start_logs.first(@starts))
      half = Math.log(1 + precision)
      ((StudentT.critical(level, [sample.starts, @starts].min - 1) * spread / half)**2).ceil
    end

    private

    def measured(cell, repeats_of)
      Measurement.new(cell.key.columns.merge("status" => "ok"), repeats_of.call(cell), **interval_options)
    end

    def starts_by_time(per_start = @load_s_per_start)
      per_start.positive? ? (@max_cell_s / per_start).floor : Float::INFINITY
    end

    def settled?(comparison) = %i[a_better b_better equivalent errors].include?(comparison.verdict)

    def precise?(measurement)
      ci = measurement.good_requests_per_s_ci
      ci && Math.log(ci.high / ci.estimate) <= Math.log(1 + precision)
    end

    def pct(share) = "#{format("%g", share * 100)} %"

    def stein_text
      "#{@starts} server starts x #{@windows} window#{"s" unless @windows == 1}, then more starts (at most " \
        "#{@max_starts}, #{format("%g", @max_cell_s)} s of load a cell) until the throughput interval is within " \
        "±#{pct(@precision)}"
    end
  end
end
