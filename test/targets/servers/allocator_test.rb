# frozen_string_literal: true

require_relative "server_helper"

module Rackbench
  # malloc: jemalloc and malloc_arena_max on a server entry: the library
  # mapped in every process of a real puma cluster (its workers among them,
  # read from /proc/PID/maps), the recorded command saying so, the label too.
  class AllocatorTest < Minitest::Test
    include ServerTestHelpers

    CLUSTER = { "server" => "puma", "workers" => 2, "threads" => 2 }.freeze

    def server_pids = Sampler.new(root_pids: @deployment.children.map(&:pid)).tree_pids
    def mapping_jemalloc = server_pids.reject { |pid| Jemalloc.unmapped([pid]).any? }

    def test_jemalloc_is_mapped_in_the_master_and_every_worker_of_a_puma_cluster
      skip Jemalloc.missing_reason if Jemalloc.missing_reason
      deploy(CLUSTER.merge("malloc" => "jemalloc", "malloc_arena_max" => 2))
      pids = server_pids
      assert_operator pids.size, :>=, 3, "puma's master and its 2 workers"
      assert_equal pids.sort, mapping_jemalloc.sort, "#{Jemalloc::LIBRARY} in every process"
      command = @deployment.commands.first
      assert_equal ["env", "LD_PRELOAD=#{Jemalloc.path}", "MALLOC_ARENA_MAX=2"], command.first(3)
      assert_equal "2", Procfs.environ_value(pids.max, "MALLOC_ARENA_MAX"), "a worker has the arena cap"
      assert_equal [200, "hello world"], Readiness.get(@deployment.target("/hello")).values_at(0, 2)
    end

    def test_without_the_knob_no_process_maps_jemalloc
      deploy(CLUSTER)
      assert_empty mapping_jemalloc
      refute_equal "env", @deployment.commands.first.first
    end

    def test_a_start_where_jemalloc_did_not_take_fails_with_the_pids_that_lack_it
      skip "this test's Ruby runs with jemalloc" if Jemalloc.unmapped([Process.pid]).empty?
      server = Servers.fetch("puma").new(CLUSTER.merge("malloc" => "jemalloc"))
      assert_nil Servers.fetch("puma").new(CLUSTER).allocator_problem([Process.pid]), "no allocator asked, nothing to check"
      assert_equal "malloc: jemalloc, but #{Jemalloc::LIBRARY} is not mapped in pid #{Process.pid}",
                   server.allocator_problem([Process.pid])
    end

    def test_the_label_says_the_allocator
      server = Servers.fetch("puma").new("server" => "puma", "threads" => 4, "malloc" => "jemalloc", "yjit" => true)
      assert_equal "puma x0:4 +yjit +jemalloc", server.label
      capped = { "server" => "puma", "threads" => 4, "malloc_arena_max" => 2 }
      assert_equal "puma x0:4 arenas=2", Servers.fetch("puma").new(capped).label
    end

    def test_an_unknown_allocator_is_one_clear_error
      error = assert_raises(ConfigError) { Servers.fetch("unicorn").new("server" => "unicorn", "malloc" => "tcmalloc").validate! }
      assert_equal 'server unicorn: "malloc" must be one of system, jemalloc, got "tcmalloc"', error.message
    end
  end
end
