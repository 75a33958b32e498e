# frozen_string_literal: true

require "test_helper"

module Rackbench
  # The suite's key schema: each key declared once with its type, bounds,
  # default and meaning, which the suite's check, its defaults and the
  # command line all read.
  class SuiteKeysTest < Minitest::Test
    def test_every_key_says_what_it_means_and_its_default_fits_its_own_check
      Suite::KEYS.each do |name, knob|
        refute_empty knob.doc.to_s, name
        assert_nil knob.problem(knob.default), "#{name}'s default #{knob.default.inspect}" unless knob.default.nil?
      end
    end

    def test_a_duration_is_in_seconds_above_zero_and_at_most_a_day
      knob = Suite::KEYS.fetch("duration_s")
      assert_nil knob.problem(0.5)
      refute_nil knob.problem(0), "no zero-second windows"
      refute_nil knob.problem(Suite::MAX_DURATION_S + 1)
      assert_nil Suite::KEYS.fetch("warmup_s").problem(0), "a warm-up may be none"
    end

    def test_a_suite_that_leaves_a_key_out_gets_its_default
      suite = Suite.load(write_suite.then { |path| File.write(path, File.read(path).sub(/^duration_s: .*\n/, "")) && path })
      assert_equal Suite::KEYS.fetch("duration_s").default, suite["duration_s"]
    end

    def test_a_value_outside_a_keys_bounds_is_named_with_its_key
      error = assert_raises(ConfigError) { Suite.load(write_suite("duration_s" => -1)) }
      assert_equal "duration_s", error.key
    end
  end
end
