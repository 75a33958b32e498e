# frozen_string_literal: true

require "test_helper"

module Rackbench
  class SideBySideTest < Minitest::Test
    def test_every_item_runs_at_once_and_the_first_error_comes_after_all_are_done
      queue = Queue.new
      done = []
      error = assert_raises(ArgumentError) do
        SideBySide.each([1, 2, 3]) do |item|
          raise ArgumentError, "item #{item}" if item == 1

          queue.pop if item == 2 # waits for item 3: they run at the same time
          queue << :go if item == 3
          done << item
        end
      end
      assert_equal "item 1", error.message
      assert_equal [2, 3], done.sort
    end
  end
end
