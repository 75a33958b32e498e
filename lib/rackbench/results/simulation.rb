# frozen_string_literal: true

require_relative "simulation/normal_noise"
require_relative "simulation/resampled_noise"

module Rackbench
  # Synthetic runs of known truth, measured the way the Runner measures them
  # (RepeatPolicy's starts and windows, its stopping rule, capped by
  # max_deployments and max_cell_s as in a real run) and judged by the same
  # code the reports use (Measurement, Comparison): how often an interval
  # covers the truth, and how often two identical configs are called
  # different. Used by the coverage test (test/results/coverage_test.rb),
  # `rackbench calibrate` (on its A/A run's own windows) and bench/calibration.
  #
  # Throughput on the log scale is log(truth) plus a noise source's
  # deviations for each start's windows: NormalNoise (components of known
  # spread) or ResampledNoise (a measured A/A run's windows, drawn again).
  # A noise source with duet windows adds a ratio window a start, measured
  # and read as a run with ratio: duet does (#duet?).
  #
  #   sim = Simulation.new(within_cv: 0.08, between_cv: 0.05, common_cv: 0.05, settings: {"deployments" => 4})
  #   sim.run(trials: 400, ratio: 1.0)   # => {"coverage"=>0.95, "false_verdicts"=>0.04, ...}
  #   Simulation.new(noise: ResampledNoise.new(rounds)).run(trials: 400)
  class Simulation
    TRUTH_PER_S = 1000.0

    attr_reader :settings, :noise

    # rule: how the intervals use the starts' spread (StartSample.standard_error):
    # :wider (what rackbench reports), or :first_stage or :all_starts alone, for comparison.
    # settings: a suite's (RepeatPolicy); stopping defaults to a run's (sequential).
    # noise: a noise source (NormalNoise, ResampledNoise); without it, a
    # NormalNoise of the given components (within_cv, between_cv, common_cv,
    # shared_cv, starved: NormalNoise's).
    def initialize(noise: nil, settings: {}, seed: 1, rule: :wider, **components)
      @noise = noise || NormalNoise.new(**components)
      @settings = %w[stopping equivalence_spending].to_h { |key| [key, Suite::KEYS.fetch(key).default] }.merge(settings)
      @seed = seed
      @rule = rule
    end

    # trials A/B pairs, A truly `ratio` times B's throughput. Returns shares:
    # coverage (A's interval covers its truth; the ratio's interval covers
    # `ratio`), verdicts by outcome, false verdicts (a faster/slower call
    # that is wrong: any call when ratio is 1, the wrong side otherwise) and
    # the mean number of starts used.
    def run(trials:, ratio: 1.0)
      rng = Random.new(@seed)
      outcomes = Array.new(trials) { trial(rng, ratio) }
      share = ->(key) { outcomes.count { |o| o[key] }.fdiv(trials) }
      { "trials" => trials, "ratio" => ratio, "coverage" => share.call(:covered),
        "ratio_coverage" => share.call(:ratio_covered), "false_verdicts" => share.call(:false_verdict),
        "verdicts" => outcomes.map { |o| o[:verdict] }.tally.transform_keys(&:to_s).transform_values { |n| n.fdiv(trials) },
        "mean_starts" => outcomes.sum { |o| o[:starts] }.fdiv(trials),
        "median_ratio_half_width" => Stats.median(outcomes.filter_map { |o| o[:half_width] }.then { |w| w.empty? ? [0.0] : w }) }
    end

    # One simulated comparison, as the Runner would measure it: sequential
    # (the default, as in a run) looks after the first stage and every start
    # after it and stops when RepeatPolicy#open_cells is empty; stein decides
    # the number of starts once after the first stage.
    def trial(rng, ratio)
      policy = RepeatPolicy.new(settings)
      repeats = { a: [], b: [] }
      starts = policy.sequential? ? policy.max_starts : policy.starts
      epoch = 0
      while (epoch += 1) <= starts
        measure_start(rng, repeats, epoch, windows_in_start(policy, epoch), ratio)
        measure_ratio(rng, repeats, epoch, ratio) if duet?(policy)
        next unless epoch >= policy.starts

        if policy.sequential?
          starts = epoch if policy.open_cells(measurements(repeats, policy)).empty?
        elsif epoch == policy.starts
          starts = policy.starts_needed(%i[a b].map { |k| sample(repeats[k]) })
        end
      end
      judge(repeats, policy, ratio, starts)
    end

    private

    # A noise source with duet windows (ratio: duet) in a sequential run: as
    # the Runner measures a block its ratio windows decide (Runner::Starts),
    # one window in turns a first-stage start, none after it, and a ratio
    # window every start; the simulated servers are busy in them.
    def duet?(policy) = @noise.respond_to?(:ratio?) && @noise.ratio? && policy.sequential?

    def windows_in_start(policy, epoch)
      return policy.windows_in_start(epoch) unless duet?(policy)

      epoch <= policy.starts ? Runner::Starts::RATIO_STAGE_WINDOWS : 0
    end

    def measure_ratio(rng, repeats, epoch, ratio)
      centres = centres(ratio)
      @noise.ratio(rng).each do |config, deviation|
        round = repeats[config].size + 1
        repeats[config] << repeat(round, epoch, Math.exp(centres.fetch(config) + deviation), ratio_window: true)
      end
    end

    # Log throughput of A and B where A is truly `ratio` times B's.
    def centres(ratio) = { a: Math.log(TRUTH_PER_S), b: Math.log(TRUTH_PER_S / ratio) }

    def measure_start(rng, repeats, epoch, windows, ratio)
      centres = centres(ratio)
      @noise.start(rng, windows).each do |config, deviations|
        deviations.each do |deviation|
          round = repeats[config].size + 1
          repeats[config] << repeat(round, epoch, Math.exp(centres.fetch(config) + deviation))
        end
      end
    end

    def measurements(repeats, policy)
      %i[a b].map do |k|
        Measurement.new({ "label" => k.to_s, "status" => "ok" }, repeats[k], **policy.interval_options, interval_rule: @rule)
      end
    end

    # A ratio window: loaded at the start's one instant, its server busy throughout (DuetBusy).
    def repeat(round, epoch, rate, ratio_window: false)
      result = Result.new(engine: "simulation", requests: rate.round, duration_s: 1.0, requests_per_s: rate)
      resources, noise = if ratio_window
                           [{ "cpu_s" => 1.0, "cpu_wait_s" => 0.0, "sampled_s" => 1.0 },
                            { "window" => Measurement::RATIO_WINDOW, "start_line_at" => epoch.to_f }]
                         else
                           [{}, nil]
                         end
      Measurement::Repeat.new(index: round, deployment: epoch, round: round, result: result, resources: resources, noise: noise)
    end

    def sample(list) = StartSample.of(list, start_of: :deployment.to_proc, value_of: :requests_per_s.to_proc)

    def judge(repeats, policy, ratio, starts)
      a, b = measurements(repeats, policy)
      comparison = Comparison.new(a, b, margin: policy.margin)
      verdict = comparison.verdict
      wrong = [(:b_better if ratio >= 1), (:a_better if ratio <= 1)].compact
      ci = comparison.ci
      { covered: a.good_requests_per_s_ci&.cover?(TRUTH_PER_S), ratio_covered: ci&.cover?(ratio),
        verdict: verdict, false_verdict: wrong.include?(verdict), starts: starts,
        half_width: ci && !ci.level.zero? ? Math.exp(Math.log(ci.high / ci.low) / 2) - 1 : nil }
    end
  end
end
