# frozen_string_literal: true

module Rackbench
  # Synthetic runs of known truth, measured the way the Runner measures them
  # (RepeatPolicy's starts and windows, Stein's decision after the first
  # stage, capped by max_deployments and max_cell_s as in a real run) and judged by the same code the reports use (Measurement,
  # Comparison): how often an interval covers the truth, and how often two
  # identical configs are called different. Used by the coverage test
  # (test/results/coverage_test.rb), `rackbench calibrate` (with this
  # machine's measured noise) and bench/calibration.
  #
  # Throughput on the log scale is
  #   log(truth) + common[start] + own[config, start] + window noise
  # where `common` is drift shared by configs started side by side (pairing
  # cancels it), `own` is what a config's start draws on its own, and the
  # window noise is the spread between windows of one start. Each is normal
  # with the given coefficient of variation. starved: the share of windows
  # in which another process takes the server's CPU (seen on this machine
  # while others work: a window at 10 % to 80 % of its neighbours), each
  # multiplied by a factor drawn uniformly from STARVED_FACTORS.
  #
  #   sim = Simulation.new(within_cv: 0.08, between_cv: 0.05, common_cv: 0.05, settings: {"deployments" => 4})
  #   sim.run(trials: 400, ratio: 1.0)   # => {"coverage"=>0.95, "false_verdicts"=>0.04, ...}
  class Simulation
    TRUTH_PER_S = 1000.0
    STARVED_FACTORS = (0.1..0.8)

    attr_reader :settings

    # rule: how the intervals use the starts' spread (StartSample.standard_error):
    # :wider (what rackbench reports), or :first_stage or :all_starts alone, for comparison.
    # settings: a suite's (RepeatPolicy); stopping defaults to a run's (sequential).
    # shared_cv: window noise shared by the configs of one round (a burst of
    # another process that hits both; pairing by round cancels it).
    def initialize(within_cv:, between_cv:, common_cv: 0.0, shared_cv: 0.0, starved: 0.0, settings: {}, seed: 1,
                   rule: :wider)
      @sd = { window: log_sd(within_cv), own: log_sd(between_cv), common: log_sd(common_cv), shared: log_sd(shared_cv) }
      @starved = starved.to_f
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
        measure_start(rng, repeats, epoch, policy.windows_in_start(epoch), ratio)
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

    def log_sd(share) = Math.sqrt(Math.log(1 + (share.to_f**2)))

    def normal(rng, spread)
      return 0.0 if spread.zero?

      spread * Math.sqrt(-2 * Math.log(1 - rng.rand)) * Math.cos(2 * Math::PI * rng.rand)
    end

    def measure_start(rng, repeats, epoch, windows, ratio)
      common = normal(rng, @sd[:common])
      shared = Array.new(windows) { normal(rng, @sd[:shared]) }
      { a: Math.log(TRUTH_PER_S), b: Math.log(TRUTH_PER_S / ratio) }.each do |config, centre|
        own = normal(rng, @sd[:own])
        windows.times do |w|
          rate = Math.exp(centre + common + own + shared[w] + normal(rng, @sd[:window])) * starvation(rng)
          round = repeats[config].size + 1
          repeats[config] << repeat(round, epoch, rate)
        end
      end
    end

    def measurements(repeats, policy)
      %i[a b].map do |k|
        Measurement.new({ "label" => k.to_s, "status" => "ok" }, repeats[k], **policy.interval_options, interval_rule: @rule)
      end
    end

    # The factor a window keeps of its rate: below 1 when starved.
    def starvation(rng)
      return 1.0 unless @starved.positive? && rng.rand < @starved

      STARVED_FACTORS.begin + (rng.rand * (STARVED_FACTORS.end - STARVED_FACTORS.begin))
    end

    def repeat(round, epoch, rate)
      result = Result.new(engine: "simulation", requests: rate.round, duration_s: 1.0, requests_per_s: rate)
      Measurement::Repeat.new(index: round, deployment: epoch, round: round, result: result, resources: {}, noise: nil)
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
