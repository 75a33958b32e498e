# frozen_string_literal: true

require "test_helper"

module Rackbench
  class Simulation
    # ResampledNoise draws simulated starts from a measured A/A run's own
    # windows: whole starts, then rounds within them, A's and B's window of a
    # round together.
    class ResampledNoiseTest < Minitest::Test
      def test_each_config_is_centred_on_its_own_mean_so_the_configs_are_identical_in_the_resampled_world
        noise = ResampledNoise.new([[[7.0, 6.0], [7.2, 6.1]], [[6.8, 5.9], [7.0, 6.0]]])
        [0, 1].each do |i|
          mean = Stats.mean(noise.starts.map { |start| Stats.mean(start.map { |pair| pair[i] }) })
          assert_in_delta 0.0, mean, 1e-12
        end
      end

      def test_a_rounds_two_windows_are_drawn_together_so_noise_they_share_stays_shared
        rounds = Array.new(4) { |s| Array.new(3) { |r| [5.0 + (0.1 * r) + (0.01 * s), 4.0 + (0.1 * r) + (0.01 * s)] } }
        drawn = ResampledNoise.new(rounds).start(Random.new(3), 50)
        drawn[:a].zip(drawn[:b]).each { |x, y| assert_in_delta x, y, 1e-12, "A's deviation is B's: the round is one" }
        assert_operator drawn[:a].uniq.size, :>, 1, "rounds are drawn, not one repeated"
      end

      def test_a_starved_window_is_drawn_as_it_was_measured
        starved = Math.log(0.2)
        rounds = [[[0.0, 0.0], [starved, 0.0]], [[0.0, 0.0], [0.0, 0.0]]]
        noise = ResampledNoise.new(rounds)
        rng = Random.new(5)
        lows = Array.new(200) { noise.start(rng, 2)[:a] }.flatten.count { |d| d < -1.0 }
        assert_operator lows, :>, 0, "the tail is kept, not smoothed into a normal"
      end

      def test_duet_rounds_give_each_start_a_ratio_window_centred_like_the_others
        noise = ResampledNoise.new([[[0.0, 0.0]], [[0.2, 0.2]]], ratio_rounds: [[[1.0, 2.0]], [[1.2, 2.2]]])
        assert noise.ratio?
        drawn = Array.new(50) { noise.ratio(Random.new(_1)) }
        assert_equal [[-0.1, -0.1], [0.1, 0.1]], drawn.map { |d| [d[:a], d[:b]].map { |x| x.round(9) } }.uniq.sort,
                     "a round's A and B drawn together, each config centred on its own mean"
        refute ResampledNoise.new([[[0.0, 0.0]], [[0.2, 0.2]]]).ratio?, "no duet rounds, no ratio windows"
      end

      def test_fewer_than_two_starts_with_both_configs_is_one_clear_error
        error = assert_raises(ArgumentError) { ResampledNoise.new([[[1.0, 1.0]], []]) }
        assert_equal "resampling needs 2 starts with a window of each config, got 1", error.message
      end

      # Data of known truth (identical configs, normal components, 40 starts
      # measured), resampled: rackbench's procedure keeps its error rates on it.
      def test_the_procedure_on_a_resampled_aa_run_calls_identical_configs_different_rarely
        source = NormalNoise.new(within_cv: 0.08, between_cv: 0.04, common_cv: 0.05, shared_cv: 0.05)
        rng = Random.new(17)
        rounds = Array.new(40) { source.start(rng, 3).then { |s| s[:a].zip(s[:b]) } }
        result = Simulation.new(noise: ResampledNoise.new(rounds), seed: 3).run(trials: 300)
        assert_operator result["false_verdicts"], :<=, 0.08, result.to_s
        assert_operator result["ratio_coverage"], :>=, 0.92, result.to_s
      end
    end
  end
end
