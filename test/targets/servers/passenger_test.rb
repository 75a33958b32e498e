# frozen_string_literal: true

require "test_helper"

module Rackbench
  module Servers
    # Passenger's adapter without Passenger: its pool, its checks and its
    # command line (serving_test and apache_passenger_test start the real one).
    class PassengerTest < Minitest::Test
      def passenger(config = {}) = Servers.fetch("passenger").new({ "server" => "passenger" }.merge(config))

      def argv(server) = server.command(app: "/srv/app/config.ru", bind: Base::Bind.new(port: 9001), dir: tmpdir)

      def option(argv, name) = argv[argv.index(name) + 1]

      def test_workers_stand_for_a_fixed_pool_unless_the_pool_knobs_are_given
        assert_equal([4, 4], passenger("workers" => 4).then { |p| [p.max_pool_size, p.min_instances] })
        assert_equal [6, 1], passenger.then { |p| [p.max_pool_size, p.min_instances] }, "Passenger's own defaults"
        assert_equal([8, 4], passenger("workers" => 4, "max_pool_size" => 8).then { |p| [p.max_pool_size, p.min_instances] })
        assert_equal "passenger x4", passenger("workers" => 4).label
      end

      def test_the_command_starts_the_builtin_engine_with_the_pool_and_its_own_files
        words = argv(passenger("workers" => 3, "spawn_method" => "direct").validate!)
        assert_equal %w[start /srv/app --rackup /srv/app/config.ru --engine builtin --address 127.0.0.1 --port 9001],
                     words[1, 10]
        assert_equal(%w[3 3 direct], %w[--max-pool-size --min-instances --spawn-method].map { |o| option(words, o) })
        assert_equal File.join(tmpdir, "passenger.pid"), option(words, "--pid-file")
      end

      def test_threads_and_a_pool_smaller_than_its_minimum_are_refused_by_key
        error = assert_raises(ConfigError) { passenger("concurrency_model" => "thread").validate! }
        assert_equal "concurrency_model", error.key
        assert_match "needs Passenger Enterprise", error.message
        error = assert_raises(ConfigError) { passenger("max_pool_size" => 2, "min_instances" => 3).validate! }
        assert_equal ["min_instances", "server passenger: min_instances 3 > max_pool_size 2"], [error.key, error.message]
      end

      def test_it_preloads_when_smart_spawning_which_doctor_reads_from_its_facts
        facts = Servers.fetch("passenger").facts
        assert_equal({ "preload" => %w[spawn_method smart] }, facts[:follows])
        assert_equal 1, facts[:by_design]["threads"], "one request per process in the open-source edition"
      end
    end
  end
end
