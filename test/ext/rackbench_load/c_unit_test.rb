# frozen_string_literal: true

require_relative "engine_helper"

module Rackbench
  # The C side tests itself: unit tests of the parser, histogram, targets,
  # units and series, and a bounded fuzz run of the response parser.
  class NativeCUnitTest < Minitest::Test
    include EngineHelpers

    def test_the_c_unit_tests_pass
      out, status = Open3.capture2e("make", "-s", "-C", EXT_DIR, "test")
      assert status.success?, out
      assert_match "all C unit tests passed", out
    end

    def test_the_response_parser_survives_a_bounded_fuzz_run
      out, status = Open3.capture2e("make", "-s", "-C", EXT_DIR, "fuzz-run", "FUZZ_SECONDS=5")
      assert status.success?, out.lines.last(30).join
      refute_match(/ERROR: (AddressSanitizer|libFuzzer)|runtime error/, out)
    end
  end
end
