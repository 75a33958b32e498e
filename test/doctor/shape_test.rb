# frozen_string_literal: true

require "test_helper"

module Rackbench
  module Doctor
    # A server's defaults, as doctor counts them, come from the adapter's
    # knob schema: a knob whose default changes changes doctor's answer.
    class ShapeTest < Minitest::Test
      def test_a_default_is_the_adapters_knob_default_not_a_copy_of_it
        knob = Servers.fetch("puma").knob_schema.fetch("threads")

        assert_equal knob.default, ServerDefaults.value("puma", "threads")
        knob.stub(:default, 7) { assert_equal 7, ServerDefaults.value("puma", "threads") }
      end

      def test_passenger_preloads_while_its_spawn_method_defaults_to_smart
        knob = Servers.fetch("passenger").knob_schema.fetch("spawn_method")

        assert ServerDefaults.value("passenger", "preload")
        knob.stub(:default, "direct") { refute ServerDefaults.value("passenger", "preload") }
      end

      def test_what_a_server_has_no_knob_for_is_its_design_and_an_unknown_key_stays_unknown
        assert_equal 1, ServerDefaults.value("unicorn", "threads")
        assert_equal 1, ServerDefaults.value("thin", "threads"), "thin's threads knob is off unless given"
        assert_nil ServerDefaults.value("falcon", "threads"), "a reactor thread is no bound on requests at once"
        assert_nil ServerDefaults.value("puma", "preload"), "puma >= 6 preloads unless told not to"
        assert_nil ServerDefaults.value("puma", "log_requests")
        assert_nil ServerDefaults.value("no-such-server", "workers")
      end
    end
  end
end
