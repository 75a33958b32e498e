# frozen_string_literal: true

require "test_helper"

module Rackbench
  # A knob's declaration is its check, its default and its words at once.
  class KnobTest < Minitest::Test
    def test_a_whole_number_within_its_bounds_fits_and_anything_else_is_named
      workers = Knob.new("workers", :whole, min: 0, default: 0)
      assert_nil workers.problem(4)
      assert_nil workers.problem(nil), "not given: the default applies"
      assert_equal "must be a whole number >= 0", workers.problem(-1)
      assert_equal "must be a whole number >= 0", workers.problem(2.5)
      assert_equal "must be a whole number > 0", Knob.new("threads", :whole, min: 1).problem(0)
      assert_equal "must be a whole number from 1 to 65535", Knob.new("port", :whole, min: 1, max: 65_535).problem(70_000)
    end

    def test_a_number_must_be_finite
      delay = Knob.new("delay_ms", :number, min: 0)
      assert_nil delay.problem(0.5)
      assert_equal "must be a finite number >= 0", delay.problem(Float::INFINITY)
      assert_equal "must be a finite number >= 0", delay.problem("x")
    end

    def test_a_choice_defaults_to_its_first_value
      model = Knob.new("model", :one_of, values: %w[forked threaded hybrid])
      assert_equal "forked", model.default
      assert_equal "must be one of forked, threaded, hybrid", model.problem("fibers")
      assert_equal "threaded", Knob.new("model", :one_of, values: %w[forked threaded], default: "threaded").default
    end

    def test_a_list_can_say_what_its_elements_are
      refork = Knob.new("refork_after", :list, items: :whole, min: 1)
      assert_nil refork.problem([50, 100])
      assert_equal "must be a list of whole numbers > 0", refork.problem([50, 0])
      assert_equal "must be a list of whole numbers > 0", refork.problem(50)
    end

    def test_a_knob_may_take_more_than_one_type
      command = Knob.new("command", %i[string list])
      assert_nil command.problem("srv {port}")
      assert_nil command.problem(%w[srv {port}])
      assert_equal "must be a string or a list", command.problem(5)
    end

    def test_booleans_strings_and_mappings
      assert_equal "must be true or false", Knob.new("preload", :boolean).problem("yes")
      assert_equal "must be a string", Knob.new("config", :string).problem(3)
      assert_equal "must be a mapping", Knob.new("settings", :mapping).problem([])
      assert_nil Knob.new("repeats", :any).problem("auto")
    end

    def test_its_description_says_what_it_takes_and_its_default
      knob = Knob.new("workers", :whole, min: 0, default: 0, doc: "forked worker processes")
      assert_equal "forked worker processes; a whole number >= 0, default 0", knob.describe
      assert_equal "a string", Knob.new("config", :string).describe
    end

    def test_every_key_of_a_suite_says_what_it_means_and_its_default_fits_its_own_check
      Suite::KEYS.each do |name, knob|
        refute_empty knob.doc, name
        assert_nil knob.problem(knob.default), "#{name}'s default #{knob.default.inspect}"
      end
      assert_equal "measured seconds per cell; a finite number of seconds above 0 up to 86400, default 2",
                   Suite::KEYS["duration_s"].describe
    end

    def test_an_unknown_type_is_a_mistake_in_the_declaration
      assert_raises(ArgumentError) { Knob.new("workers", :integer) }
    end
  end
end
