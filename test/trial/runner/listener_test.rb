# frozen_string_literal: true

require "test_helper"

module Rackbench
  class Runner
    # The Runner's listener is told only the events it answers; none at all is fine.
    class ListenerTest < Minitest::Test
      Heard = Struct.new(:events) do
        def cell_finished(cell, measurement) = events << [cell, measurement]
      end

      def test_an_event_the_listener_answers_reaches_it_with_its_arguments
        heard = Heard.new([])
        Listener.new(heard).tell(:cell_finished, :cell, :measurement)
        assert_equal [%i[cell measurement]], heard.events
      end

      def test_an_event_it_does_not_answer_and_a_missing_listener_are_skipped
        heard = Heard.new([])
        Listener.new(heard).tell(:run_started, :run, :plan)
        Listener.new(nil).tell(:cell_finished, :cell, :measurement)
        assert_empty heard.events
      end
    end
  end
end
