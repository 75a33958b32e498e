# frozen_string_literal: true

require "test_helper"
require "rackbench/cli/servers"

module Rackbench
  # `rackbench servers --knobs` lists every knob as declared: the listing is
  # printed from the declarations that check a suite, so it cannot drift.
  class KnobTableTest < Minitest::Test
    def table = CLI::Servers::KnobTable.new

    def test_each_row_is_a_knob_as_declared_with_what_it_takes_and_its_default
      assert_includes table.rows, ["server", "puma", "workers", "a whole number >= 0", "0",
                                   "forked worker processes (0 = single mode)"]
      assert_includes table.rows, ["suite", "-", "duration_s", "a finite number of seconds above 0 up to 86400", "2",
                                   "measured seconds per cell"]
      assert_includes table.rows.map { |r| r.first(3) }, %w[service memcached threads]
      assert_includes table.rows.map { |r| r.first(3) }, %w[proxy nginx balance]
    end

    def test_the_command_prints_it
      out = StringIO.new
      assert_equal 0, CLI::Servers.new(["--knobs", "--format", "markdown"], out, StringIO.new).call
      assert_equal table.grid.markdown, out.string
    end
  end
end
