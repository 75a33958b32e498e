# frozen_string_literal: true

require "test_helper"

module Rackbench
  # `rackbench ab`'s input: what it refuses before it checks anything out or
  # starts anything (test/integration/ab_test.rb measures real versions).
  class CliAbTest < Minitest::Test
    def ab(*argv) = run_cli("ab", "--results", tmpdir, *argv)

    def test_it_needs_two_versions
      status, out, err = ab("only-one")
      assert_equal 2, status, out
      assert_includes err, "ab needs two versions: A B (see rackbench ab --help)"
    end

    def test_a_suite_names_the_servers_so_server_and_endpoint_are_refused_beside_it
      status, _, err = ab("a", "b", "--suite", write_suite, "--server", "thin")
      assert_equal 2, status
      assert_includes err, "--suite names the endpoints and servers; --server and --endpoint are for a run without one"
    end

    def test_a_suite_that_measures_in_sequence_cannot_pair_the_versions
      status, _, err = ab("a", "b", "--suite", write_suite("order" => "sequential"))
      assert_equal 2, status
      assert_includes err, "order: sequential measures A's cells apart from B's"
      refute File.exist?(File.join(tmpdir, "ab")), "nothing was checked out"
    end
  end
end
