# frozen_string_literal: true

require "test_helper"
require "json"
require "open3"
require_relative "fixture_app_helper"

module Rackbench
  # rackbench ab on real puma: two versions of a small Rack app whose one
  # endpoint sleeps, so its throughput is set by the sleep (4 clients on 50 ms
  # sleeps: 80 req/s) and a busy machine barely moves it. Version B sleeps
  # 60 ms: 17 % fewer requests per second.
  class AbTest < Minitest::Test
    include FixtureAppHelper

    SETTINGS = ["--server", "puma", "--endpoint", "/", "--concurrency", "4", "--duration", "1", "--warmup", "0.2"].freeze

    def app_folder(name, delay_ms)
      dir = File.join(tmpdir, name)
      FileUtils.mkdir_p(dir)
      write_app(dir, delay_ms)
      dir
    end

    def write_app(dir, delay_ms)
      File.write(File.join(dir, "config.ru"),
                 "run ->(_env) { sleep #{delay_ms / 1000.0}; [200, { \"content-type\" => \"text/plain\" }, [\"ok\"]] }\n")
    end

    def ab(*argv)
      rackbench("ab", *argv, "--results", File.join(tmpdir, "results"), *SETTINGS)
    end

    def test_a_version_made_a_fifth_slower_regressed_and_exits_one
      status, out, pid = ab(app_folder("fast", 50), app_folder("slow", 60))
      assert_equal 1, status.exitstatus, out
      assert_match(%r{^B slow: puma\S* +/ +4 .*regressed}, out)
      assert_match "A = fast, B = slow", out
      assert_nothing_left(pid)
    end

    def test_two_identical_versions_are_not_said_to_regress
      status, out, pid = ab(app_folder("one", 50), app_folder("two", 50))
      refute_equal 1, status.exitstatus, out
      refute_match "regressed", out
      assert_nothing_left(pid)
    end

    def git(dir, *args)
      out, status = Open3.capture2e("git", "-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.com", *args)
      assert status.success?, out
      out
    end

    def test_two_revisions_of_a_repository_are_checked_out_measured_and_removed
      repo = app_folder("repo", 50)
      git(repo, "init", "-q")
      git(repo, "add", ".")
      git(repo, "commit", "-q", "-m", "50 ms")
      git(repo, "tag", "v1")
      write_app(repo, 60)
      git(repo, "commit", "-q", "-am", "60 ms")
      status, out, pid = rackbench("ab", "v1", "HEAD", "--results", File.join(tmpdir, "results"), *SETTINGS, chdir: repo)
      assert_equal 1, status.exitstatus, out
      assert_match(%r{^B HEAD: puma\S* +/ +4 .*regressed}, out)
      assert_equal 1, git(repo, "worktree", "list").lines.size, "the checkouts are removed"
      assert_empty Dir[File.join(tmpdir, "results", "ab", "*", "*")]
      assert_nothing_left(pid)
    end
  end
end
