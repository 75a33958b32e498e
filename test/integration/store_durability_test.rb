# frozen_string_literal: true

require "test_helper"
require "open3"

module Rackbench
  # kill -9 of rackbench at random moments of real runs into one results
  # folder: the SQLite store (write-ahead log, one transaction per repeat and
  # per finished cell) passes PRAGMA integrity_check every time, every stored
  # cell has its repeats, and every killed run still renders.
  class StoreDurabilityTest < Minitest::Test
    BIN = File.join(ROOT, "bin", "rackbench")
    KILLS = 3

    def suite
      @suite ||= write_suite("engine" => "native", "duration_s" => 0.5, "order" => "sequential", "repeats" => 2,
                             "servers" => [{ "server" => "puma", "threads" => 2 }, { "server" => "webrick" }])
    end

    # Killed once its run is stored and a process of it (a server) runs:
    # before the run, rackbench runs short commands of its own (versions,
    # checks), and a kill among them leaves no run to look at.
    def kill_a_run_at_random(random, stored_runs)
      pid = Process.spawn(BIN, "run", "--results", tmpdir, suite, out: File::NULL, err: File::NULL)
      wait_until(timeout_s: 60, message: "run #{stored_runs + 1} stored and a server started") do
        Dir[File.join(tmpdir, "runs", "*")].size > stored_runs && leftovers(pid).any?
      end
      at_s = random.rand(0.0..3.0)
      sleep at_s # the random moment is the experiment
      Process.kill("KILL", pid)
      Process.wait(pid)
      wait_until(timeout_s: CLEANUP_DEADLINE_S, message: "nothing left") { leftovers(pid).empty? }
      at_s
    end

    def integrity(database) = database.fetch("PRAGMA integrity_check").map { |r| r.values.first }

    def test_kill_9_at_random_moments_leaves_a_sound_store
      seed = Random.new_seed
      random = Random.new(seed)
      KILLS.times do |i|
        at_s = kill_a_run_at_random(random, i)
        store = Store.new(tmpdir)
        db = store.instance_variable_get(:@db)
        assert_equal ["ok"], integrity(db), "kill #{i + 1} at #{at_s.round(2)} s (seed #{seed})"
        assert_equal "wal", db.fetch("PRAGMA journal_mode").first[:journal_mode]
        runs = store.runs
        assert_equal i + 1, runs.size
        runs.each do |run|
          store.cells(run["id"]).each do |cell|
            next unless cell["status"] == "ok"

            assert_equal 2, store.repeats(run["id"]).fetch(cell["position"]).size, "a finished cell has all its repeats"
          end
        end
        store.close
        status, _out, err = run_cli("report", "--results", tmpdir, "--format", "json")
        assert_equal 0, status, err
      end
    end
  end
end
