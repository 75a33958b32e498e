# frozen_string_literal: true

require "test_helper"

module Rackbench
  # Requests like real traffic, sent by the native engine to a real puma:
  # ids in turn or drawn at random from a seed (ids_order), and a HEAD
  # endpoint in a mix.
  class RequestOrderTest < Minitest::Test
    RECORDING_APP = <<~RUBY
      seen = []
      heads = 0
      lock = Mutex.new
      run lambda { |env|
        case env["PATH_INFO"]
        when %r{\\A/items/(\\d+)\\z} then lock.synchronize { seen << $1.to_i }
        when "/health" then lock.synchronize { heads += 1 } if env["REQUEST_METHOD"] == "HEAD"
        when "/seen" then next [200, { "content-type" => "text/plain" }, [lock.synchronize { "\#{heads} \#{seen.join(",")}" }]]
        end
        [200, { "content-type" => "text/plain", "content-length" => "5" }, ["hello"]]
      }
    RUBY

    def teardown
      @deployment&.stop
      @supervisor&.stop_all
      assert_nothing_left
      super
    end

    def deploy
      app = File.join(tmpdir, "recording.ru")
      File.write(app, RECORDING_APP)
      @supervisor = Supervisor.new
      @deployment = Deployment.new(Servers.fetch("puma").new("server" => "puma", "threads" => 1), supervisor: @supervisor,
                                                                                                  dir: tmpdir, app: app).start
    end

    # The ids the app saw, in order, and how many HEADs, after one second of traffic.
    def send_traffic(endpoint, seed: 1)
      deploy
      traffic = Traffic.new(endpoint)
      load = Engines::Load.new(target: @deployment.target(traffic.path), concurrency: 1, duration_s: 1, traffic: traffic,
                               seed: seed)
      result = Engines.fetch("native").new.run(load, supervisor: @supervisor, dir: tmpdir)
      _, _, body = Readiness.get(@deployment.target("/seen"))
      @deployment.stop
      @deployment = nil
      heads, seen = body.split(" ", 2)
      [result, seen.to_s.split(",").map(&:to_i), heads.to_i]
    end

    def ids_endpoint(order = nil)
      { "name" => "item", "path" => "/items/:id", "ids" => [1, 2, 3, 4, 5, 6, 7, 8], "ids_order" => order }.compact
    end

    def test_ids_are_taken_in_turn_by_default
      _, seen, = send_traffic(ids_endpoint)
      assert_operator seen.size, :>=, 16
      assert_equal (1..8).cycle.first(seen.size), seen
    end

    def test_ids_drawn_at_random_are_all_drawn_and_the_same_seed_draws_the_same
      _, seen, = send_traffic(ids_endpoint("random"), seed: 7)
      assert_operator seen.size, :>=, 40
      assert_equal (1..8).to_a, seen.uniq.sort, "every id is drawn"
      refute_equal (1..8).cycle.first(seen.size), seen, "not in turn"
      _, again, = send_traffic(ids_endpoint("random"), seed: 7)
      n = [seen.size, again.size].min
      assert_equal seen.first(n), again.first(n), "seeded: the same draws"
      _, other, = send_traffic(ids_endpoint("random"), seed: 8)
      refute_equal seen.first(20), other.first(20)
    end

    def test_a_head_endpoint_is_part_of_a_mix
      mix = { "name" => "mix", "path" => "/items/1",
              "mix" => [{ "endpoint" => ids_endpoint, "weight" => 3 },
                        { "endpoint" => { "name" => "check", "path" => "/health", "method" => "HEAD", "expect_status" => 200 },
                          "weight" => 1 }] }
      result, seen, heads = send_traffic(mix)
      check = result.endpoints.find { |e| e["name"] == "check" }
      assert_equal "HEAD", check["method"]
      assert_operator check["requests"], :>, 0
      assert_equal 0, result.error_count, result.errors.inspect
      assert_in_delta 3.0, seen.size.fdiv(heads), 0.5, "weights 3:1 (#{seen.size} GETs, #{heads} HEADs)"
    end

    def test_a_bad_ids_order_is_named
      assert_equal "ids_order must be turn or random, got \"shuffled\"", Request.problem(ids_endpoint("shuffled"))
      assert_equal "ids_order needs ids: [...]", Request.problem({ "path" => "/items", "ids_order" => "random" })
    end
  end
end
