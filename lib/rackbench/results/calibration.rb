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
  # false-verdict rate of rackbench's procedure on data with these
  # components (Simulation, at the given settings); and the windows per start
  # and starts that reach a precision in the least wall time (Kalibera &
  # Jones: windows per start = sqrt(start cost x window variance / (window
  # cost x start variance))).
  #
  #   c = Calibration.new(a, b, start_cost_s: 3.1, window_cost_s: 2.6)
  #   c.components  # {"within_start_cv"=>, "own_start_cv"=>, "common_start_cv"=>}
  #   c.lines       # the report
  class Calibration
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

    # Variance components on the log scale, as CVs (nil when not estimable).
    def components
      @components ||= begin
        sa, sb = samples
        within = [sa.within_variance, sb.within_variance].compact
        per_start = [Stats.stddev(sa.start_logs)**2, Stats.stddev(sb.start_logs)**2]
        diffs = start_differences
        diff_var = diffs.size >= 2 ? Stats.stddev(diffs)**2 : nil
        window_var = within.empty? ? 0.0 : Stats.mean(within)
        per_window = window_var / sa.windows_per_start
        own = diff_var ? [(diff_var / 2) - per_window, 0.0].max : nil
        common = diff_var ? [Stats.mean(per_start) - (diff_var / 2), 0.0].max : nil
        { "within_start_cv" => cv(window_var), "own_start_cv" => own && cv(own), "common_start_cv" => common && cv(common),
          "starts" => diffs.size, "windows_per_start" => sa.windows_per_start }
      end
    end

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

      @simulated ||= Simulation.new(within_cv: c["within_start_cv"], between_cv: c["own_start_cv"],
                                    common_cv: c["common_start_cv"], settings: @settings, seed: 2026)
                               .run(trials: @trials)
    end

    # The windows per start and starts that give a paired ratio interval of
    # ±precision in the least wall time, and that time for one pair of configs.
    def recommendation(precision: 0.05, level: Stats::LEVEL)
      c = components
      return nil unless c["own_start_cv"]

      window_var = log_var(c["within_start_cv"])
      own_var = log_var(c["own_start_cv"])
      windows = if own_var.zero? then 10
                else Math.sqrt(start_cost_s * window_var / ([window_cost_s, 0.01].max * own_var)).round.clamp(1, 10)
                end
      per_start = 2 * (own_var + (window_var / windows))
      starts = starts_for(per_start, Math.log(1 + precision), level)
      { "precision" => precision, "windows_per_start" => windows, "starts" => starts,
        "wall_s" => starts * (start_cost_s + (2 * windows * window_cost_s)) }
    end

    def lines(precision: 0.05)
      c = components
      out = ["A/A: #{config_label} twice, #{c["starts"]} starts side by side x " \
             "#{format("%g", c["windows_per_start"])} windows each"]
      out << "spread of throughput: between windows of a start #{pct(c["within_start_cv"])}, " \
             "between starts of a config #{pct(c["own_start_cv"])}, drift shared by configs started together " \
             "#{pct(c["common_start_cv"])}"
      drift = drift_per_start
      out << "drift over the run: #{format("%+.1f", drift * 100)} % per start" if drift
      out << "observed verdict on identical configs: #{observed}"
      if (sim = simulated)
        out << "rackbench's procedure at these settings on data with this spread (#{sim["trials"]} simulated A/A runs): " \
               "interval coverage #{pct(sim["coverage"])}, false 'faster' verdicts #{pct(sim["false_verdicts"])}, " \
               "#{format("%.1f", sim["mean_starts"])} starts on average"
      end
      if (rec = recommendation(precision: precision))
        out << "for ±#{pct(precision)} on a ratio of two configs in the least time: #{rec["windows_per_start"]} window(s) " \
               "per start, about #{rec["starts"]} starts, #{format("%.0f", rec["wall_s"])} s per pair " \
               "(a start costs #{format("%.1f", start_cost_s)} s, a window #{format("%.1f", window_cost_s)} s here)"
      end
      out
    end

    def to_h(precision: 0.05)
      { "components" => components, "drift_per_start" => drift_per_start, "observed" => observed.to_h,
        "simulated" => simulated, "recommendation" => recommendation(precision: precision),
        "start_cost_s" => start_cost_s, "window_cost_s" => window_cost_s }
    end

    private

    # The config both cells measured, labelled by its adapter (the A and B labels left out).
    def config_label = Servers.fetch(a.server).new(a.config.except("label")).label

    def cv(variance) = Math.sqrt(Math.exp(variance) - 1)
    def log_var(share) = Math.log(1 + (share**2))
    def pct(share) = share ? "#{(share * 100).round(1)} %" : "n/a"

    # Smallest n with t(n-1) * sqrt(var / n) <= half.
    def starts_for(variance, half, level)
      (2..500).find { |n| StudentT.critical(level, n - 1) * Math.sqrt(variance / n) <= half } || 500
    end
  end
end
