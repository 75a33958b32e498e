# frozen_string_literal: true

require "test_helper"

module Rackbench
  # The Runner's measurement model with real servers: repeats over fresh
  # deployments in interleaved rounds, the drain before each window, and a
  # server that never drains failing its cell with the reason.
  class RepeatsTest < Minitest::Test
    def run_suite(extra)
      store = Store.new(tmpdir)
      run_id = Runner.new(Suite.load(write_suite({ "engine" => "native" }.merge(extra))), store: store).run
      [store.run(run_id), store.measurements(run_id)]
    ensure
      store&.close
    end

    def test_repeats_span_two_deployments_in_alternating_rounds_with_the_seed_recorded
      run, cells = run_suite("duration_s" => 0.3, "repeats" => 3, "deployments" => 2, "seed" => 5,
                             "ratio" => "turns", # the windows in turns alone: no ratio window between them
                             "servers" => [{ "server" => "puma", "threads" => 2 }, { "server" => "webrick" }])
      assert_equal 5, run["settings"]["seed"]
      assert_equal(%w[ok ok], cells.map(&:status))
      cells.each do |m|
        assert_equal [1, 2, 3], m.repeats.map(&:index)
        assert_equal [1, 1, 2], m.repeats.map(&:deployment), "two repeats on the first deployment, one on a fresh one"
        assert_equal [1, 2, 3], m.repeats.map(&:round)
        assert m.requests_per_s_ci, "two starts give an interval"
        m.repeats.each { |r| assert_kind_of Hash, r.noise, "each repeat measured the rest of the machine" }
      end
      assert Comparison.new(*cells).paired?, "rounds measured alternately pair up"
      assert_nothing_left
    end

    def test_auto_adds_server_starts_up_to_the_cap_when_the_precision_is_out_of_reach
      _run, cells = run_suite("duration_s" => 0.3, "warmup_s" => 0, "repeats" => "auto", "deployments" => 2,
                              "windows" => 1, "max_deployments" => 3, "precision" => 0.0001)
      m = cells.first
      assert_equal [1, 2, 3], m.repeats.map(&:deployment), "one window on each of three starts: more starts, not windows"
      assert(m.warnings.any? { |w| w.kind == "spread" }, "an imprecise cell says so")
    end

    # stopping: stein (how runs were measured before the sequential design):
    # the runner adds exactly the starts the policy asks for after the first
    # stage, decided from that stage's own spread (RepeatPolicy#starts_needed).
    def test_stein_makes_the_starts_the_first_stage_asked_for
      settings = { "endpoints" => ["/sleep/20"], "concurrency" => [2], "duration_s" => 0.5, "warmup_s" => 0,
                   "repeats" => "auto", "deployments" => 3, "windows" => 1, "max_deployments" => 6, "precision" => 0.3,
                   "stopping" => "stein" }
      _run, cells = run_suite(settings)
      m = cells.first
      first_stage = StartSample.of(m.repeats.select { |r| r.deployment <= 3 }, start_of: :deployment.to_proc,
                                                                               value_of: :good_requests_per_s.to_proc)
      asked = RepeatPolicy.new(settings).starts_needed([first_stage], load_s_per_start: 0.5)
      assert_equal (1..asked).to_a, m.repeats.map(&:deployment)
    end

    # Sequential: one thread against eight on /sleep/50 at concurrency 8 is
    # an eightfold difference, settled at the first look; the run stops there
    # although the cap allows twice the starts, and stores how it stopped.
    # The windows in turns alone (ratio: turns): on a sleeping endpoint a
    # duet's ratio window finds the servers idle, and the verdict reads the
    # windows in turns either way.
    def test_a_settled_comparison_stops_its_block_at_the_first_look
      run, cells = run_suite("endpoints" => ["/sleep/50"], "concurrency" => [8], "duration_s" => 1, "warmup_s" => 0,
                             "repeats" => "auto", "windows" => 1, "deployments" => 3, "max_deployments" => 6, "ratio" => "turns",
                             "servers" => [{ "server" => "puma", "threads" => 1 }, { "server" => "puma", "threads" => 8 }])
      assert_equal "sequential", run["settings"]["stopping"]
      comparison = Comparison.new(*cells)
      assert_equal :b_better, comparison.verdict, comparison.to_s
      spread = cells.map { |m| m.repeats.map { |r| r.requests_per_s.round } }
      cells.each { |m| assert_equal [1, 2, 3], m.repeats.map(&:deployment), "#{m.label}: stopped at the first look (#{spread})" }
      assert_nothing_left
    end

    # A question still open goes on: two identical configs with a margin
    # too narrow to settle take every start the cap allows (one past the
    # first look's two).
    def test_an_open_comparison_takes_starts_up_to_the_cap
      _run, cells = run_suite("endpoints" => ["/hello"], "concurrency" => [2], "duration_s" => 0.3, "warmup_s" => 0,
                              "repeats" => "auto", "windows" => 1, "deployments" => 2, "max_deployments" => 3,
                              "margin" => 0.0001,
                              "servers" => [{ "server" => "puma", "threads" => 2 }, { "server" => "puma", "threads" => 2 }])
      comparison = Comparison.new(*cells)
      skip "the identical configs came out apart by chance: #{comparison}" if comparison.decided?
      # every start measured the cell: in turns, or (ratio: duet, after the first stage) in ratio windows only
      cells.each do |m|
        assert_equal [1, 2, 3], (m.repeats + m.ratio_repeats).map(&:deployment).uniq.sort,
                     "#{m.label}: #{m.status} #{m.reason}"
      end
    end

    def test_a_server_still_busy_after_the_load_is_waited_for_before_the_next_window
      # One request at a time, 300 ms each: 6 clients leave a queue behind when a window ends.
      # 1 s windows: three answers each where 0.5 s gave one, and none on a starved CPU
      # (load 18 beside a one-core hog: "no request completed in the measured 0.5 s").
      app = write_rackup(<<~RUBY)
        lock = Mutex.new
        run lambda { |env|
          lock.synchronize { sleep 0.3 } unless env["PATH_INFO"] == "/hello"
          [200, { "content-type" => "text/plain" }, ["hello world"]]
        }
      RUBY
      _run, cells = run_suite("app" => app, "endpoints" => ["/slow"], "concurrency" => [6], "duration_s" => 1,
                              "warmup_s" => 0, "repeats" => 2, "timeout_s" => 5,
                              "servers" => [{ "server" => "puma", "threads" => 8 }])
      m = cells.first
      assert_equal "ok", m.status, m.reason
      assert_operator m.repeats[1].drain_s, :>=, 0.3, "the second window waited for the first one's queue"
    end

    def test_a_server_that_never_goes_idle_fails_its_cell_with_the_reason
      # The spinner raises its priority where it may (root), so a busy machine
      # cannot starve it into looking idle for a moment.
      app = write_rackup(<<~RUBY)
        spinning = false
        run lambda { |_env|
          unless spinning
            spinning = true
            begin
              Process.setpriority(Process::PRIO_PROCESS, 0, -10)
            rescue SystemCallError
              nil
            end
            Thread.new { loop { 1 + 1 } }
          end
          [200, { "content-type" => "text/plain" }, ["hello world"]]
        }
      RUBY
      _run, cells = run_suite("app" => app, "endpoints" => ["/spin"], "duration_s" => 0.3, "warmup_s" => 0,
                              "drain_timeout_s" => 1.5, "servers" => [{ "server" => "puma", "threads" => 2 }])
      assert_equal "failed", cells.first.status
      # Busy past the timeout, or so busy (the spinner holds the GVL) that the
      # drain's probe request got no answer: either way the drain names it.
      assert_match(%r{did not drain within 1.5 s: its CPU was \d+ % busy|drain: the probe request to /spin failed},
                   cells.first.reason)
      assert_nothing_left
    end
  end
end
