# frozen_string_literal: true

require "test_helper"
require "open3"
require_relative "fixture_app_helper"

module Rackbench
  # rackbench ab on real puma: two versions of a small Rack app whose one
  # endpoint sleeps about 200 ms (150 to 250 ms drawn at random, so that the
  # clients drift out of step and each window counts about as many requests;
  # the revisions' 100 and 400 ms).
  # Its throughput is set by the sleeps (8 clients: 40 req/s), too few
  # requests for a busy machine's CPU to move much; but at a load average of
  # 10 a start's throughput still wandered by 20 % (log sd 0.19 over 3 starts
  # of 1 s windows in one CI run). These tests check the plumbing (two versions
  # deployed, measured, paired and judged; the exit status), so they use few
  # starts and a slower version four times as slow, whose regression such a
  # spread cannot hide; how the verdict is decided, down to a tenth, is
  # test/results/regression_test.rb's. The revision four times as slow needs
  # three starts (its interval, Student t on two degrees of freedom, must
  # clear the 5 % threshold at such a spread: log ratio 1.39 against a
  # half-width of about 0.7 at a log sd of 0.19 a start; twice as slow took
  # four starts, a server start and a window more a version); it is also
  # the test of revisions (one regression measured, where two tests
  # measured one each: of two folders, and of revisions).
  # Two like versions (the test of folders) need two starts, the fewest
  # that pair into an interval (any verdict but regressed passes, and a
  # regressed call needs the whole interval below no change: at two starts
  # Student t on one degree of freedom makes it wider than at three), and
  # the Gemfile test, which asks nothing of the verdict, one. Puma gets twice as many threads as
  # clients: on 8 threads at 8 clients two CI runs saw one start of the 200 ms
  # app serve a fraction of its 40 req/s (p99 near 1 s), which no effect size
  # survives; spare threads keep a saturated pool out of this test (whether
  # the pool was the cause is not settled). Two whole-suite runs at load 13
  # saw it again with 16 threads; by hand, such a start was the load
  # generator's: pinned to a CPU other runs held, it waited 1.30 s for the CPU
  # and ran 0.03 s while counting 6 req/s. Such a window is now measured
  # again (StarvedEngine, test/trial/window_test.rb).
  class AbTest < Minitest::Test
    include FixtureAppHelper

    # The suite both versions are measured with: a window of 1 s on each of `starts` server starts (the
    # verdict's unit is a start).
    def settings(starts)
      suite = write_suite({ "endpoints" => ["/"], "concurrency" => [8], "duration_s" => 1,
                            "warmup_s" => 0.5, "engine" => "native", "repeats" => starts, "deployments" => starts,
                            "servers" => [{ "server" => "puma", "threads" => 16 }] }, "ab.yml")
      ["--suite", suite, "--results", File.join(tmpdir, "results")]
    end

    def app_folder(name, sleep_ms)
      dir = File.join(tmpdir, name)
      FileUtils.mkdir_p(dir)
      write_app(dir, sleep_ms)
      dir
    end

    # A config.ru whose answer takes sleep_ms on average, ±25 %.
    def write_app(dir, sleep_ms)
      low = sleep_ms * 0.75 / 1000
      high = sleep_ms * 1.25 / 1000
      File.write(File.join(dir, "config.ru"),
                 "run ->(_env) { sleep(rand(#{low}..#{high})); [200, { \"content-type\" => \"text/plain\" }, [\"ok\"]] }\n")
    end

    def git(dir, *args)
      out, status = Open3.capture2e("git", "-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.com", *args)
      assert status.success?, out
      out
    end

    # Whether each stored window was loaded as a duet.
    def duet_windows
      store = Store.new(File.join(tmpdir, "results"))
      store.measurements(store.run["id"]).flat_map(&:repeats).map { |r| r.noise.key?("duet") }
    ensure
      store&.close
    end

    # The gate at a threshold of 20 %, not the default 5 %: a regression
    # needs the change's estimate beyond the threshold and its interval below
    # no change. Three starts of 40 requests a window under a one-core hog
    # once read identical versions at -5.9 % [-9.8, -1.8] (a whole-suite run
    # at load 3-6): at 5 % such a draw fails the gate about once in a hundred
    # runs, which is the gate's promise, not a fault this test looks for. At
    # 20 % only a broken pairing or deployment would say regressed.
    def test_two_identical_versions_are_not_said_to_regress
      status, out, pid = rackbench("ab", app_folder("one", 200), app_folder("two", 200), *settings(2), "--duet",
                                   "--threshold", "0.2")
      assert_equal 0, status.exitstatus, out
      assert_equal [true], duet_windows.uniq, "--duet: A and B loaded at one instant, each round"
      refute_match "regressed", out
      assert_match "Run 1 (B = two) against baseline run 1 (A = one)", out, "two folders, named by their folders"
      assert_match(%r{^A one: puma x0:16 +/ +8 .* (equivalent|inconclusive|improved)$}, out,
                   "measured and compared; by chance alone, 1 run in 40 may say B is faster")
      assert_nothing_left(pid)
    end

    def test_a_version_that_is_nothing_known_is_bad_input_and_starts_nothing
      repo = app_folder("repo", 200)
      git(repo, "init", "-q")
      git(repo, "add", ".")
      git(repo, "commit", "-q", "-m", "one")
      status, out, = rackbench("ab", "HEAD", "v9", *settings(2), chdir: repo)
      assert_equal 2, status.exitstatus, out
      assert_match(/\Arackbench: B: v9 is not a folder, a Gemfile or a revision of the git repository \S+repo$/, out)
      refute File.exist?(File.join(tmpdir, "results", "ab")), "nothing was checked out"
    end

    # Two revisions of a repository, the later one four times as slow,
    # measured in turns (the default): each is checked out, measured, judged
    # (B regressed, exit 1) and its checkout removed.
    def test_a_revision_made_four_times_as_slow_is_checked_out_measured_judged_regressed_and_removed
      repo = app_folder("repo", 100)
      git(repo, "init", "-q")
      git(repo, "add", ".")
      git(repo, "commit", "-q", "-m", "100 ms")
      git(repo, "tag", "v1")
      write_app(repo, 400)
      git(repo, "commit", "-q", "-am", "400 ms")
      status, out, pid = rackbench("ab", "v1", "HEAD", *settings(3), chdir: repo)
      assert_equal 1, status.exitstatus, out
      assert_match(%r{^A v1: puma x0:16 +/ +8 .* -\d+\.\d % \[-\d+\.\d, -\d+\.\d\] +regressed$}, out)
      assert_match(/^Run 1 \(B = HEAD \(\h{12}\)\) against baseline run 1 \(A = v1 \(\h{12}\)\)/, out)
      assert_equal [false], duet_windows.uniq, "measured in turns (the default)"
      assert_equal 1, git(repo, "worktree", "list").lines.size, "the checkouts are removed"
      assert_empty Dir[File.join(tmpdir, "results", "ab", "*", "*")]
      assert_match "rand(0.3..0.5)", File.read(File.join(repo, "config.ru")), "the repository's own files are as they were"
      assert_nothing_left(pid)
    end

    # The sinatra3 fixture under its Gemfile (Sinatra 3) and a Gemfile.next
    # that asks for Sinatra 4, each with its own lock: the run records both
    # bundles and measures both. Which is faster is not the question here.
    # The stored run is read back in this process (CLI.start), not by a
    # bin/rackbench report of its own.
    def test_two_gemfiles_of_one_app_run_it_under_each_bundle
      app = fixture_app("sinatra3")
      File.write(File.join(app, "Gemfile.next"), File.read(File.join(app, "Gemfile")).sub('"~> 3.2"', '"~> 4.2"'))
      out, status = Bundler.with_unbundled_env do
        Open3.capture2e({ "BUNDLE_GEMFILE" => File.join(app, "Gemfile.next") }, "bundle", "install", "--local", chdir: app)
      end
      assert status.success?, out
      results = File.join(tmpdir, "results")
      status, out, pid = rackbench("ab", "Gemfile", "Gemfile.next", "--endpoint", "/version", "--server", "puma",
                                   "--concurrency", "2", "--duration", "0.5", "--warmup", "0", "--repeats", "1",
                                   "--deployments", "1", "--results", results, chdir: app)
      refute_includes [2, 5], status.exitstatus, out
      assert_match(%r{^A Gemfile: puma +/version +2 }, out)
      status, json, err = run_cli("report", "--results", results, "--format", "json")
      assert_equal 0, status, err
      bundles = JSON.parse(json)["run"]["machine"]["app_bundles"]
      assert_equal %w[3.2.0 4.2.1], bundles.values.map { |b| b["gems"]["sinatra"] }.sort, bundles.keys.inspect
      assert_nothing_left(pid)
    end
  end
end
