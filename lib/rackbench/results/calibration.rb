# frozen_string_literal: true

module Rackbench
  # What this machine's noise means for rackbench's own verdicts, from an
  # A/A run: one config measured twice, under two labels, started side by
  # side and interleaved (`rackbench calibrate`). Pure: reads two
  # Measurements, measures nothing itself.
  #
  # The spread of log throughput splits into (StartSample, Simulation):
  #   window  between windows of one start
  #   own     what one config's start draws on its own (pairing cannot cancel it)
  #   common  drift shared by configs started side by side (pairing cancels it)
  # from which it gives: the A/A verdict observed; the coverage and
  # false-verdict rate of rackbench's procedure on this run's own windows
  # drawn again (Simulation::ResampledNoise), at the given settings and at
  # the recommended ones; and the windows per start and starts that reach a
  # precision in the least wall time (Kalibera & Jones: windows per start =
  # sqrt(start cost x window variance / (window cost x start variance))).
  #
  #   c = Calibration.new(a, b, start_cost_s: 3.1, window_cost_s: 2.6)
  #   c.components  # {"within_start_cv"=>, "own_start_cv"=>, "common_start_cv"=>}
  #   c.lines       # the report
  class Calibration
    SIMULATED_STARTS = 30
    KEYS = { "window" => "within_start_cv", "shared_window" => "shared_window_cv", "own_start" => "own_start_cv",
             "common_start" => "common_start_cv" }.freeze
    attr_reader :a, :b, :start_cost_s, :window_cost_s

    def initialize(a, b, start_cost_s:, window_cost_s:, settings: {}, trials: 400)
      @a = a
      @b = b
      @start_cost_s = start_cost_s.to_f
      @window_cost_s = window_cost_s.to_f
      @settings = settings
      @trials = trials
    end

    def samples = [a, b].map { |m| m.sample("good_requests_per_s") }

    # Variance components on the log scale, as CVs (nil when not estimable),
    # from the paired design's mean squares (PairedComponents): each
    # config's own window noise, window noise shared by the round, each
    # config's own start, drift shared by the start; with their intervals.
    def components
      @components ||= begin
        pc = paired
        found = pc.components
        { "within_start_cv" => found.dig("window", "cv"), "shared_window_cv" => found.dig("shared_window", "cv"),
          "own_start_cv" => found.dig("own_start", "cv"), "common_start_cv" => found.dig("common_start", "cv"),
          "intervals" => found.transform_values { |c| c["interval"] }, "level" => pc.level,
          "starts" => pc.starts, "windows_per_start" => pc.windows_per_start }
      end
    end

    def paired = @paired ||= PairedComponents.new(a, b)

    # How much of the window noise is other processes taking the CPU (Interference).
    def interference = @interference ||= Interference.new(a, b)

    # Log differences of A and B, start by start.
    def start_differences
      sa, sb = samples
      sa.start_logs.zip(sb.start_logs).filter_map { |x, y| y && (x - y) }
    end

    # Trend of the start means: the share by which throughput moved per start (least squares).
    def drift_per_start
      logs = samples.first.start_logs.zip(samples.last.start_logs).map { |x, y| (x + y.to_f) / (y ? 2 : 1) }
      return nil if logs.size < 3

      xs = (0...logs.size).map(&:to_f)
      mx = Stats.mean(xs)
      my = Stats.mean(logs)
      slope = xs.zip(logs).sum { |x, y| (x - mx) * (y - my) } / xs.sum { |x| (x - mx)**2 }
      Math.exp(slope) - 1
    end

    def observed = Comparison.new(a, b, margin: @settings.fetch("margin", Comparison::MARGIN))

    # rackbench's procedure (RepeatPolicy at the given settings) on synthetic
    # data with this machine's components: coverage and false verdicts.
    def simulated
      c = components
      return nil unless c["own_start_cv"]

      @simulated ||= simulate(@settings)
    end

    # The procedure at settings on this run's own windows, drawn again
    # (Simulation::ResampledNoise: tails, shared and starved windows kept as
    # they were measured), rather than on a normal model of them.
    def simulate(settings)
      Simulation.new(noise: resampled_noise, settings: settings, seed: 2026).run(trials: @trials)
    end

    # Where the ratio comes from duet windows, they are drawn again too, and
    # the simulated runs read them as the procedure does.
    def resampled_noise
      @resampled_noise ||= Simulation::ResampledNoise.new(paired.rounds, ratio_rounds: (duet_rounds if duet_ratio?))
    end

    def duet_ratio? = observed.ratio_windows? && duet_rounds.size >= 2

    # The windows per start and starts that give a paired ratio interval of
    # ±precision in the least wall time, and that time for one pair of
    # configs: the paired difference's own variances (window noise shared by
    # the round cancels), windows per start by Kalibera & Jones, and starts
    # by the sequential design's critical value at that many starts.
    def recommendation(precision: 0.05, level: Stats::LEVEL)
      return duet_recommendation(precision, level) if observed.ratio_windows?

      c = components
      return nil unless c["own_start_cv"]

      windows = windows_per_start(log_var(c["within_start_cv"]), log_var(c["own_start_cv"]))
      per_start = paired.paired_start_variance(windows)
      starts = starts_for(per_start, Math.log(1 + precision), level)
      { "precision" => precision, "windows_per_start" => windows, "starts" => starts,
        "wall_s" => starts * (start_cost_s + (2 * windows * window_cost_s)) }
    end

    # Kalibera & Jones's windows a start, at most 10. A spread between starts
    # estimated at zero (the mean squares' difference came out at or below
    # 0, as it often does over 2 or 3 starts) is not a spread known to be
    # nil, which would ask for every window allowed: it is unknown, and the
    # windows a start stay the default's.
    def windows_per_start(window_var, own_var)
      return Suite::KEYS.fetch("windows").default if own_start_unknown?

      Math.sqrt(start_cost_s * window_var / ([window_cost_s, 0.01].max * own_var)).round.clamp(1, 10)
    end

    def own_start_unknown? = components["own_start_cv"].to_f.zero?

    # Where the run's throughput ratio comes from duet windows (ratio: duet,
    # Comparison#ratio_windows?), as the procedure's does by default, the
    # windows in turns do not narrow it: only starts do, at the spread of a
    # start's duet log ratio as this run measured it. The wall time: the
    # first stage's windows in turns, then every start at what a start cost
    # here (its boots, checks and duet window). Its windows per start are the
    # default's, which the figures beside the ratio read.
    def duet_recommendation(precision, level)
      logs = duet_start_logs
      return nil if logs.size < 2

      starts = starts_for(Stats.stddev(logs)**2, Math.log(1 + precision), level)
      windows = Suite::KEYS.fetch("windows").default # the figures' windows in turns, as they are
      first_stage = Suite::KEYS.fetch("deployments").default * windows
      { "precision" => precision, "ratio_from" => "duet windows", "windows_per_start" => windows, "starts" => starts,
        "wall_s" => (starts * start_cost_s) + (2 * first_stage * window_cost_s) }
    end

    def lines(precision: 0.05)
      c = components
      out = ["A/A: #{config_label} twice, #{c["starts"]} starts side by side x " \
             "#{format("%g", c["windows_per_start"])} windows each"]
      out << "spread of throughput (#{(c["level"] * 100).round} % intervals): " \
             "#{component_text("window", "each config's own between windows of a start")}, " \
             "#{component_text("shared_window", "shared by the configs of a round (pairing cancels it)")}, " \
             "#{component_text("own_start", "each config's own between starts")}, " \
             "#{component_text("common_start", "drift shared by configs started together (pairing cancels it)")}"
      drift = drift_per_start
      out << "drift over the run: #{format("%+.1f", drift * 100)} % per start" if drift
      out << interference_text if interference.estimable?
      out << "observed verdict on identical configs: #{observed}"
      if (sim = simulated)
        out << "rackbench's procedure at these settings on #{resampled_noise} (#{sim["trials"]} simulated A/A runs): " \
               "#{outcome_text(sim)}"
      end
      if (rec = recommendation(precision: precision))
        out << recommendation_text(rec)
        at = simulated_at_recommendation(precision: precision)
        out << if at
                 "the procedure at those settings (windows: #{rec["windows_per_start"]}, max_deployments: " \
                   "#{[rec["starts"], 3].max}) on the same resampled windows: #{outcome_text(at)}"
               else
                 "not simulated at those settings: #{rec["starts"]} starts is beyond the #{SIMULATED_STARTS} a " \
                   "simulation here runs; the spread between starts, not the procedure, is what to lower"
               end
      end
      out
    end

    # The procedure at the recommended settings on data with the measured spread
    # (nil beyond SIMULATED_STARTS starts: a design of hundreds of looks takes minutes to build).
    def simulated_at_recommendation(precision: 0.05)
      rec = recommendation(precision: precision) or return nil
      return nil if rec["starts"] > SIMULATED_STARTS || (rec["ratio_from"] && !duet_ratio?)

      @simulated_at_recommendation ||= simulate(@settings.merge("windows" => rec["windows_per_start"], "max_cell_s" => 10_000,
                                                                "max_deployments" => [rec["starts"], 3].max))
    end

    def to_h(precision: 0.05)
      { "components" => components, "drift_per_start" => drift_per_start, "observed" => observed.to_h,
        "simulated" => simulated, "recommendation" => recommendation(precision: precision),
        "simulated_at_recommendation" => simulated_at_recommendation(precision: precision),
        "interference" => interference.to_h,
        "start_cost_s" => start_cost_s, "window_cost_s" => window_cost_s }
    end

    private

    def recommendation_text(rec)
      costs = "a start costs #{format("%.1f", start_cost_s)} s, a window #{format("%.1f", window_cost_s)} s here"
      if rec["ratio_from"]
        return "for ±#{pct(rec["precision"])} on a ratio of two configs: about #{rec["starts"]} starts, the ratio from " \
               "their duet windows, one a start, as the procedure measures it (the windows in turns do not narrow " \
               "it), #{format("%.0f", rec["wall_s"])} s per pair (#{costs})"
      end

      "for ±#{pct(rec["precision"])} on a ratio of two configs#{" in the least time" unless own_start_unknown?}: " \
        "#{rec["windows_per_start"]} window(s) per start#{unknown_start_spread_text}, about #{rec["starts"]} starts, " \
        "#{format("%.0f", rec["wall_s"])} s per pair (#{costs})"
    end

    def unknown_start_spread_text
      return "" unless own_start_unknown?

      " (the default: the spread between starts estimated at 0 over #{components["starts"]} starts, which leaves it " \
        "unknown, not nil; calibrate with more starts to trade windows against starts)"
    end

    # Each start's log ratio A/B from its duet windows paired by round, as
    # Comparison reads them: rounds a starved load generator spoiled left out.
    def duet_start_logs = duet_rounds.map { |start| Stats.mean(start.map { |x, y| x - y }) }

    # [[log A, log B] per duet round] per start, in start order (what ResampledNoise draws from).
    def duet_rounds
      @duet_rounds ||= duet_pairs.group_by { |r, _| r.deployment }.sort_by { |start, _| start.to_i }.map do |_, list|
        list.map { |x, y| [Math.log(x.good_requests_per_s), Math.log(y.good_requests_per_s)] }
      end
    end

    # [A's, B's] duet window of each round both have, but the spoiled ones.
    def duet_pairs
      spoiled = [a, b].flat_map { |m| m.ratio_repeats.select { |r| r.noise&.dig("starved_in_duet") }.map(&:round) }
      by_round = b.ratio_repeats.to_h { |r| [r.round, r] }
      a.ratio_repeats.reject { |r| spoiled.include?(r.round) }.filter_map { |r| (other = by_round[r.round]) && [r, other] }
    end

    # The config both cells measured, labelled by its adapter (the A and B labels left out).
    def config_label = Servers.fetch(a.server).new(a.config.except("label")).label

    def cv(variance) = Math.sqrt(Math.exp(variance) - 1)
    def log_var(share) = Math.log(1 + (share**2))
    def pct(share) = share ? "#{(share * 100).round(1)} %" : "n/a"

    def outcome_text(sim)
      "interval coverage #{pct(sim["coverage"])}, false 'faster' verdicts #{pct(sim["false_verdicts"])}, " \
        "equivalent #{pct(sim["verdicts"]["equivalent"].to_f)}, #{format("%.1f", sim["mean_starts"])} starts on average"
    end

    def interference_text
      i = interference
      "other processes' CPU: the spread of a round's A/B ratio within a start is #{pct(i.spread_cv)}, " \
        "#{pct(i.unexplained_cv)} once the share of the CPUs other processes took in each window is accounted " \
        "for (#{pct(i.explained_share)} of its variance, #{i.rounds} rounds)#{duet_advice(i)}"
    end

    def duet_advice(interference)
      return "" unless interference.explained_share.to_f >= 0.25
      return ": the verdict below reads duet windows, which put both configs under the same interference" if duet_ratio?

      ": loading both configs at once (ratio: duet, the default, for the ratio) puts them under the same interference"
    end

    def component_text(name, what)
      low, high = components.dig("intervals", name)
      "#{what} #{pct(components[KEYS.fetch(name)])}#{format(" [%.1f, %.1f]", low * 100, high * 100) if low}"
    end

    # Smallest n whose interval at a sequential run's last look is within
    # half: looking is paid for, and the last look of the default design
    # (Pocock-type, looks after 3 to 20 starts) takes about a fifth of alpha
    # (Sequential: nominal 0.990 at 95 %), so t at 1 - alpha / 5.
    def starts_for(variance, half, level)
      nominal = 1 - ((1 - level) / 5)
      (3..500).find { |n| StudentT.critical(nominal, n - 1) * Math.sqrt(variance / n) <= half } || 500
    end
  end
end
