# frozen_string_literal: true

# What a pair's duet windows (ratio: duet's ratio windows, or every window of
# duet: true) showed, for the bench/ scripts: how many rounds were loaded at
# once, the share a starved load generator spoiled (starved_in_duet: left
# out of the ratio), and the spread of the log ratio A/B between the rounds'
# windows and between the starts' means.
#
#   rounds = DuetRounds.new(a, b)
#   rounds.starved_share    # => 0.1
#   rounds.start_log_sd     # => 0.031 (a log ratio: about 3.1 %)
class DuetRounds
  attr_reader :rounds, :starved

  def initialize(a, b)
    by_round = [a, b].map { |m| duet_windows(m).group_by(&:round) }
    common = (by_round[0].keys & by_round[1].keys).compact.sort
    pairs = common.map { |round| [by_round[0][round].first, by_round[1][round].first] }
    @rounds = pairs.size
    spoiled, kept = pairs.partition { |pair| pair.any? { |r| r.noise["starved_in_duet"] } }
    @starved = spoiled.size
    @logs = kept.select { |pair| pair.all? { |r| r.good_requests_per_s.positive? } }
                .map { |x, y| [x.deployment, Math.log(x.good_requests_per_s / y.good_requests_per_s)] }
  end

  def starved_share = @rounds.zero? ? nil : @starved.fdiv(@rounds)

  # Standard deviation of the windows' log ratios (rounds kept).
  def window_log_sd = sd(@logs.map(&:last))

  # Standard deviation of the starts' mean log ratios.
  def start_log_sd = sd(@logs.group_by(&:first).values.map { |list| list.sum(&:last) / list.size })

  def starts = @logs.map(&:first).uniq.size

  private

  def duet_windows(measurement)
    ratio = measurement.respond_to?(:ratio_repeats) ? measurement.ratio_repeats : []
    (measurement.repeats.select { |r| r.noise&.key?("duet") } + ratio).uniq
  end

  def sd(values)
    return nil if values.size < 2

    mean = values.sum / values.size
    Math.sqrt(values.sum { |v| (v - mean)**2 } / (values.size - 1))
  end
end
