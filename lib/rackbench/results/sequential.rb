# frozen_string_literal: true

module Rackbench
  # Repeated confidence intervals for figures looked at after every server
  # start (a group-sequential design; Jennison & Turnbull, "Group Sequential
  # Methods", ch. 9). The Runner looks at a comparison after each start from
  # `first_look` on and stops it as soon as its outcome is settled; an
  # interval that is right 95 % of the time at one pre-set number of starts is
  # not right 95 % of the time at a number chosen by looking. So each look k
  # (after n_k starts) gets a nominal level 1 - alpha_k, chosen so that the
  # chance that ANY look's interval misses the truth is at most 1 - level:
  # the interval printed when the run stops keeps its stated level, whenever
  # it stopped.
  #
  #   design = Sequential.for(first_look: 3, max_starts: 10)
  #   design.nominal_level(3)     # => 0.9885...: the look after 3 starts
  #   design.critical(3)          # Student t quantile at that level, 2 degrees of freedom
  #
  # The alpha_k come from a spending function f (the cumulative share of
  # 1 - level spent by information fraction t = n_k / max_starts): :pocock
  # (Lan & DeMets' Pocock type, f = alpha ln(1 + (e - 1) t): spends early, so a
  # large difference stops at the first look), :obrien_fleming (f = 2 - 2
  # Phi(z / sqrt t): saves its alpha for the last looks) or :constant (one
  # nominal level at every look, Pocock's original). Each look's Student t
  # statistic over n_k starts is pivotal under normal start-to-start noise
  # (its law does not depend on the spread), so the boundaries are found once
  # by simulating PATHS runs of standard normal starts with a fixed seed: the
  # design holds for any spread, and the same arguments give the same design.
  # bench/sequential compares the three on ratio precision per start, A/A and
  # known differences; test/results/sequential_test.rb checks the level.
  class Sequential
    SPENDING = %i[pocock obrien_fleming constant].freeze
    PATHS = 20_000
    SEED = 20_171

    @designs = {}

    class << self
      # The design for these looks (memoized: built once per process).
      def for(first_look:, max_starts:, level: Stats::LEVEL, spending: :pocock, equivalence_spending: nil)
        key = [first_look, max_starts, level, spending, equivalence_spending]
        @designs[key] ||= new(first_look: first_look, max_starts: max_starts, level: level, spending: spending,
                              equivalence_spending: equivalence_spending)
      end
    end

    attr_reader :first_look, :max_starts, :level, :spending, :equivalence_spending

    # equivalence_spending: the spending of the equivalence test's looks
    # (#for_equivalence); the same as spending when not given.
    def initialize(first_look:, max_starts:, level: Stats::LEVEL, spending: :pocock, equivalence_spending: nil)
      [spending, equivalence_spending].compact.each do |name|
        raise ArgumentError, "spending: one of #{SPENDING.join(", ")}, got #{name.inspect}" unless SPENDING.include?(name)
      end

      @first_look = [first_look.to_i, 2].max
      @max_starts = [max_starts.to_i, @first_look].max
      @level = level
      @spending = spending
      @equivalence_spending = equivalence_spending || spending
      @alphas = looks.size == 1 ? [1 - level] : kept_boundaries
    end

    # The starts after which the figures are looked at.
    def looks = (first_look..max_starts).to_a

    # The nominal level of the look after `starts` starts: the first look's
    # below it, the last look's beyond it (a run that went on past its design
    # keeps the last boundary).
    def nominal_level(starts) = 1 - @alphas[(starts.clamp(first_look, max_starts) - first_look)]

    # The two-sided Student t critical value of the look after `starts` starts.
    def critical(starts) = (@criticals ||= {})[starts] ||= StudentT.critical(nominal_level(starts), starts - 1)

    # The same looks at another level.
    def at_level(other) = self.class.for(first_look: first_look, max_starts: max_starts, level: other, spending: spending)

    # The same looks for the equivalence test (two one-sided tests, read from
    # an interval at `other` = 1 - 2 alpha), spent by equivalence_spending:
    # an equivalence can only be shown once the interval is narrower than the
    # margin, late in a run, so its alpha is best kept for the last looks
    # (O'Brien-Fleming), while a large difference should stop at the first
    # look (Pocock). Each test keeps its own error rate: stopping early for
    # the other outcome only ends a path sooner.
    def for_equivalence(other)
      self.class.for(first_look: first_look, max_starts: max_starts, level: other, spending: equivalence_spending)
    end

    def to_h
      { "first_look" => first_look, "max_starts" => max_starts, "level" => level, "spending" => spending.to_s,
        "equivalence_spending" => equivalence_spending.to_s,
        "nominal_levels" => looks.to_h { |n| [n, nominal_level(n)] } }
    end

    private

    # |t| of every simulated path at every look: PATHS rows of looks.size.
    def path_statistics
      rng = Random.new(SEED)
      Array.new(PATHS) do
        sum = 0.0
        squares = 0.0
        (1..max_starts).filter_map do |n|
          x = standard_normal(rng)
          sum += x
          squares += x * x
          next if n < first_look

          mean = sum / n
          sd = Math.sqrt([(squares - (n * mean * mean)) / (n - 1), 1e-300].max)
          (mean / (sd / Math.sqrt(n))).abs
        end
      end
    end

    def boundaries = spending == :constant ? constant_boundaries : spent_boundaries

    # The boundaries, computed once a machine for these arguments and this code (Computed).
    def kept_boundaries
      arguments = [first_look, max_starts, level, spending.to_s, PATHS, SEED]
      Computed.fetch("sequential", arguments, sources: [__FILE__, File.join(__dir__, "student_t.rb")]) { boundaries }
    end

    # Each look in turn: of the paths no earlier look stopped, the ones with
    # the largest |t| cross, as many as the spending function allows by then.
    def spent_boundaries
      stats = path_statistics
      alive = Array.new(PATHS, true)
      crossed = 0
      looks.each_with_index.map do |n, k|
        allowed = (spent(n.fdiv(max_starts)) * PATHS).floor
        candidates = (0...PATHS).select { |i| alive[i] }
        take = (allowed - crossed).clamp(0, candidates.size)
        crossing = take.zero? ? [] : candidates.max_by(take) { |i| stats[i][k] } # largest first, no whole sort
        threshold = take.zero? ? Float::INFINITY : stats[crossing.last][k]
        crossing.each { |i| alive[i] = false }
        crossed += take
        threshold.infinite? ? 1e-12 : StudentT.two_sided_p(threshold, n - 1)
      end
    end

    # One nominal alpha for every look, by bisection on the share of paths
    # that any look's boundary stops.
    def constant_boundaries
      stats = path_statistics
      low = 1e-6
      high = 1 - level
      30.times do
        mid = Math.sqrt(low * high)
        criticals = looks.map { |n| StudentT.critical(1 - mid, n - 1) }
        stopped = stats.count { |row| row.each_with_index.any? { |t, k| t > criticals[k] } }
        stopped.fdiv(PATHS) > 1 - level ? high = mid : low = mid
      end
      [low] * looks.size
    end

    # The cumulative share of 1 - level spent by information fraction t.
    def spent(fraction)
      alpha = 1 - level
      case spending
      when :pocock then alpha * Math.log(1 + ((Math::E - 1) * fraction))
      else 2 - (2 * normal_cdf(normal_quantile(1 - (alpha / 2)) / Math.sqrt(fraction)))
      end
    end

    def normal_cdf(score) = 0.5 * Math.erfc(-score / Math.sqrt(2))

    def normal_quantile(p) = StudentT.quantile(p, 1_000_000)

    def standard_normal(rng) = Math.sqrt(-2 * Math.log(1 - rng.rand)) * Math.cos(2 * Math::PI * rng.rand)
  end
end
