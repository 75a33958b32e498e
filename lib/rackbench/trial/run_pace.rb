# frozen_string_literal: true

require "socket"

module Rackbench
  # How this results folder's latest runs on this machine went against their
  # plan (RunEstimate), so the next run's estimate is one figure: each
  # finished run stores what it learned (settings["estimate"], Runner): its
  # wall time (taken_s), what its plan allows, at its plan's pace, for the
  # starts each cell actually took (done_s: windows, warm-ups, boots, stops;
  # not a loaded machine's slower starts and checks), and its plan's two ends
  # (first_look_s, cap_s). Runs planned by another model of the costs
  # (RunEstimate::MODEL) are not read.
  #
  # From the latest RUNS of them:
  #   factor: the median of taken_s / done_s, the time a run takes per
  #           second of its plan here (a loaded machine's, and every gap's);
  #   reach:  the median of where done_s fell between the first look (0) and
  #           the cap (1): how far the procedure really goes before it stops.
  #
  #   pace = RunPace.of(store)
  #   pace.about_s(95.0, 310.0)   # factor * (95 + reach * (310 - 95))
  #   pace.to_s                   # "from the 2 latest runs here: they took 1.9x their plan, ..."
  #
  # With none, the plan is taken at DEFAULT_FACTOR, and RunEstimate plans
  # the starts the design's simulation expects (ExpectedStarts).
  class RunPace
    RUNS = 5
    LISTED = 4 * RUNS # runs looked through for RUNS of this machine's
    DEFAULT_FACTOR = 1.0

    # What one run learned: the figures above, and how many of its blocks
    # settled at the first look.
    Run = Struct.new(:taken_s, :done_s, :first_look_s, :cap_s, :blocks, :blocks_at_first_look, keyword_init: true) do
      def self.from_h(stored) = new(**members.to_h { |k| [k, stored[k.to_s]] })

      def factor = taken_s.to_f / done_s
      def usable? = taken_s.to_f.positive? && done_s.to_f.positive?

      def reach
        span = cap_s.to_f - first_look_s.to_f
        span.positive? ? ((done_s - first_look_s) / span).clamp(0.0, 1.0) : 0.0
      end
    end

    # The latest RUNS finished runs of host that stored what they learned.
    # stored: how many runs the folder lists at all (said when none learned).
    def self.of(store, host: Socket.gethostname, runs: RUNS)
      listed = store.runs(limit: LISTED)
      learned = listed.filter_map do |run|
        next unless run["status"] == "finished" && run.dig("machine", "hostname") == host

        h = run.dig("settings", "estimate")
        h.is_a?(Hash) && h["model"] == RunEstimate::MODEL ? Run.from_h(h) : nil
      end
      new(learned.select(&:usable?).first(runs), stored: listed.size)
    end

    attr_reader :runs

    def initialize(runs = [], stored: runs.size)
      @runs = runs
      @stored = stored
    end

    def learned? = runs.any?
    def factor = learned? ? Stats.median(runs.map(&:factor)) : DEFAULT_FACTOR
    def reach = learned? ? Stats.median(runs.map(&:reach)) : nil

    # A run planned to take first_look_s at the first look and cap_s at its
    # cap, as the latest runs here went (learned? only).
    def about_s(first_look_s, cap_s) = factor * (first_look_s + (reach * (cap_s - first_look_s)))

    def to_s
      return @stored.zero? ? "no run stored here" : "no run here stored its pace" unless learned?

      blocks = runs.sum { |r| r.blocks.to_i }
      settled = runs.sum { |r| r.blocks_at_first_look.to_i }
      "from the #{runs.size == 1 ? "latest run" : "#{runs.size} latest runs"} here: " \
        "#{runs.size == 1 ? "it" : "they"} took #{format("%.1f", factor)}x #{runs.size == 1 ? "its" : "their"} plan, " \
        "#{settled} of #{blocks} block#{"s" unless blocks == 1} settled at the first look"
    end
  end
end
