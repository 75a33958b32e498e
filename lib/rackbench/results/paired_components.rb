# frozen_string_literal: true

module Rackbench
  # The noise of an A/A pair as the paired design sees it: two configs
  # started side by side, measured in the same rounds (`rackbench
  # calibrate`). On the log scale, window j of start i of A and of B is
  #
  #   x = mu + common_i + ownA_i + shared_ij + eA_ij      y = mu + common_i + ownB_i + shared_ij + eB_ij
  #
  # common: drift of a start shared by both; own: what each config's start
  # draws alone; shared: window noise that hits both in one round (another
  # process's burst); e: each config's own window noise. The paired
  # difference d = x - y keeps only own and e, which is what every verdict's
  # interval pays for; the sum m = x + y carries common and shared. Four mean
  # squares (within and between starts, of d and of m) estimate the four
  # variances by their expectations:
  #
  #   within d  = 2 e          between d = 2 own + 2 e / w
  #   within m  = 4 shared + 2 e          between m = 4 common + 2 own + (4 shared + 2 e) / w
  #
  # (w windows per start). Each mean square has an exact chi-square interval;
  # a component that is a difference of mean squares gets the interval that
  # combines theirs (each at level 1 - alpha / k for k of them, so the
  # component's level is at least the stated one): no component is clamped to
  # a point 0, its interval says how small it may be.
  #
  #   pc = PairedComponents.new(a, b)
  #   pc.components["own_start"]   # {"cv" => 0.031, "interval" => [0.0, 0.058]}
  #   pc.paired_start_variance     # variance of a start's paired log difference, what the procedure uses
  class PairedComponents
    NAMES = %w[window shared_window own_start common_start].freeze

    attr_reader :level

    def initialize(a, b, level: Stats::LEVEL)
      @level = level
      @rounds = paired_rounds(a, b)
      @starts = @rounds.map { |start| start.map { |x, y| [x - y, x + y] } }
    end

    # [[log A, log B] per round] per start: the rounds in which both configs
    # have a window, in start order (what Simulation::ResampledNoise draws from).
    attr_reader :rounds

    def starts = @starts.size
    def windows_per_start = starts.zero? ? 0 : @starts.sum(&:size).fdiv(starts)
    def estimable? = starts >= 2 && @starts.all? { |s| s.size >= 2 }

    # Each component: its CV and the interval of its CV (nil when not estimable).
    def components
      return {} unless estimable?

      @components ||= NAMES.to_h { |name| [name, component(terms(name))] }
    end

    # The variance of one start's paired log difference (mean of its windows):
    # what the interval of a ratio is made of, at w windows a start.
    def paired_start_variance(windows = w)
      return nil unless estimable?

      (2 * variance("own_start")) + (2 * variance("window") / windows)
    end

    # A component's variance on the log scale (its point estimate, 0 when negative).
    def variance(name) = [point(name), 0.0].max

    def point(name) = terms(name).sum { |coefficient, key| coefficient * mean_squares.fetch(key)[0] }

    private

    TERMS = {
      "window" => [[->(_) { 0.5 }, :within_d]],
      "shared_window" => [[->(_) { 0.25 }, :within_m], [->(_) { -0.25 }, :within_d]],
      "own_start" => [[->(_) { 0.5 }, :between_d], [->(w) { -0.5 / w }, :within_d]],
      "common_start" => [[->(_) { 0.25 }, :between_m], [->(_) { -0.25 }, :between_d], [->(w) { -0.25 / w }, :within_m],
                         [->(w) { 0.25 / w }, :within_d]]
    }.freeze
    private_constant :TERMS

    def w = windows_per_start

    # The component as [coefficient, mean square] terms at this run's windows per start.
    def terms(name) = TERMS.fetch(name).map { |coefficient, key| [coefficient.call(w), key] }

    def paired_rounds(a, b)
      by_round = b.repeats.to_h { |r| [r.round, r] }
      pairs = a.repeats.filter_map do |r|
        x = r.good_requests_per_s
        y = by_round[r.round]&.good_requests_per_s
        next unless x&.positive? && y&.positive?

        [r.deployment, Math.log(x), Math.log(y)]
      end
      pairs.group_by(&:first).sort_by { |start, _| start.to_i }.map { |_, list| list.map { |_, x, y| [x, y] } }
    end

    # {key => [mean square, degrees of freedom]}
    def mean_squares
      @mean_squares ||= %i[d m].each.with_index.with_object({}) do |(name, i), out|
        groups = @starts.map { |start| start.map { |pair| pair[i] } }
        within_df = groups.sum { |g| g.size - 1 }
        within = groups.sum { |g| g.sum { |v| (v - Stats.mean(g))**2 } } / within_df
        out[:"within_#{name}"] = [within, within_df]
        out[:"between_#{name}"] = [Stats.stddev(groups.map { |g| Stats.mean(g) })**2, groups.size - 1]
      end
    end

    # A linear combination of mean squares: point estimate (as a CV, 0 when
    # negative) and an interval from each mean square's chi-square interval
    # at level 1 - alpha / k, the low end taking each term at its least.
    def component(terms)
      alpha = (1 - level) / terms.size
      bounds = terms.map do |coefficient, key|
        ms, df = mean_squares.fetch(key)
        low, high = ChiSquare.variance_interval(ms, df, 1 - alpha)
        coefficient.positive? ? [coefficient * low, coefficient * high] : [coefficient * high, coefficient * low]
      end
      estimate = terms.sum { |coefficient, key| coefficient * mean_squares.fetch(key)[0] }
      low = [bounds.sum(&:first), 0.0].max
      high = [bounds.sum(&:last), 0.0].max
      { "cv" => cv([estimate, 0.0].max), "estimate_variance" => estimate, "interval" => [cv(low), cv(high)],
        "level" => level }
    end

    def cv(variance) = Math.sqrt(Math.exp(variance) - 1)
  end
end
