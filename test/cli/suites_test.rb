# frozen_string_literal: true

require "test_helper"
require "stringio"

module Rackbench
  module CLI
    class SuitesTest < Minitest::Test
      def listing
        out = StringIO.new
        assert_equal 0, CLI.start(["suites"], out: out, err: StringIO.new)
        out.string.lines.drop(2).to_h { |line| line.split(/\s{2,}/).first(2) }
      end

      def test_every_built_in_suite_is_listed_with_the_cells_its_plan_has
        rows = listing
        assert_equal Suite.builtin_names.sort, rows.keys.sort
        Suite.builtin_names.each do |name|
          assert_equal Plan.new(Suite.load(name)).size.to_s, rows.fetch(name).strip, name
        end
      end
    end
  end
end
