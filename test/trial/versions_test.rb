# frozen_string_literal: true

require "test_helper"
require "open3"

module Rackbench
  # Two versions of an app become one suite with each server entry twice;
  # revisions are checked out beside the repository and removed afterwards.
  class VersionsTest < Minitest::Test
    def app_folder(name, delay_ms: 50)
      dir = File.join(tmpdir, name)
      FileUtils.mkdir_p(dir)
      File.write(File.join(dir, "config.ru"), "run ->(_env) { sleep #{delay_ms / 1000.0}; [200, {}, [\"ok\"]] }\n")
      dir
    end

    def git(dir, *args)
      out, status = Open3.capture2e("git", "-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.com", *args)
      assert status.success?, out
      out
    end

    def repository
      dir = app_folder("repo")
      git(dir, "init", "-q")
      git(dir, "add", ".")
      git(dir, "commit", "-q", "-m", "fast")
      git(dir, "tag", "v1")
      File.write(File.join(dir, "config.ru"), "run ->(_env) { sleep 0.06; [200, {}, [\"ok\"]] }\n")
      git(dir, "commit", "-q", "-am", "slow")
      dir
    end

    def test_two_folders_become_each_server_entry_twice_a_then_b
      versions = Versions.parse(app_folder("old"), app_folder("new"))
      data = versions.suite_data("endpoints" => ["/"], "setup" => ["true"],
                                 "servers" => [{ "server" => "puma", "threads" => 4 }, { "server" => "thin" }])
      assert_equal "folder", versions.kind
      assert_equal(["A old: puma x0:4", "B new: puma x0:4", "A old: thin", "B new: thin"], data["servers"].map { |s| s["label"] })
      assert_equal([File.join(tmpdir, "old", "config.ru"), File.join(tmpdir, "new", "config.ru")] * 2,
                   data["servers"].map { |s| s["app"] })
      assert_equal [["true"]] * 4, data["servers"].map { |s| s["setup"] }, "the suite's setup runs for each version"
      refute data.key?("setup")
      Suite.new(data.to_yaml, path: File.join(tmpdir, "ab.yml")) # a valid suite
    end

    def test_versions_of_one_name_are_told_apart_by_their_letter
      one = app_folder(File.join("a", "app"))
      other = app_folder(File.join("b", "app"))
      data = Versions.parse(one, other).suite_data("endpoints" => ["/"], "servers" => [{ "server" => "puma", "label" => "p" }])
      assert_equal(["A: p", "B: p"], data["servers"].map { |s| s["label"] })
    end

    def test_two_gemfiles_run_one_app_under_each_bundle
      dir = app_folder("app")
      %w[Gemfile Gemfile.lock Gemfile.next Gemfile.next.lock].each { |f| File.write(File.join(dir, f), "") }
      versions = Versions.parse(File.join(dir, "Gemfile"), File.join(dir, "Gemfile.next.lock"))
      data = versions.suite_data("endpoints" => ["/"], "servers" => [{ "server" => "puma", "env" => { "X" => "1" } }])
      assert_equal "Gemfile", versions.kind
      assert_equal([{ "X" => "1", "BUNDLE_GEMFILE" => File.join(dir, "Gemfile") },
                    { "X" => "1", "BUNDLE_GEMFILE" => File.join(dir, "Gemfile.next") }], data["servers"].map { |s| s["env"] })
      assert_equal([File.join(dir, "config.ru")] * 2, data["servers"].map { |s| s["app"] })
    end

    def test_a_gemfile_without_its_lock_says_how_to_make_it
      dir = app_folder("app")
      %w[Gemfile Gemfile.lock Gemfile.next].each { |f| File.write(File.join(dir, f), "") }
      error = assert_raises(ConfigError) { Versions.parse(File.join(dir, "Gemfile"), File.join(dir, "Gemfile.next")) }
      assert_match "B: #{File.join(dir, "Gemfile.next")} has no Gemfile.next.lock beside it: run " \
                   "`BUNDLE_GEMFILE=Gemfile.next bundle install`", error.message
    end

    def test_a_folder_and_a_revision_are_not_one_kind
      error = assert_raises(ConfigError) { Versions.parse(app_folder("old"), "v1") }
      assert_match "must be of one kind: two folders, two Gemfiles or two git revisions; got a folder and a revision",
                   error.message
    end

    def test_a_name_that_is_no_revision_names_the_repository
      dir = repository
      error = assert_raises(ConfigError) { Versions.parse("v1", "v9", app: File.join(dir, "config.ru")) }
      assert_match(/\AB: v9 is not a folder, a Gemfile or a revision of the git repository .*repo\z/, error.message)
    end

    def test_revisions_are_checked_out_beside_the_repository_and_removed_afterwards
      dir = repository
      versions = Versions.parse("v1", "HEAD", app: File.join(dir, "config.ru"))
      checkouts = File.join(tmpdir, "results", "ab", "1")
      versions.prepare(checkouts)
      assert_match "sleep 0.05", File.read(versions.a.app)
      assert_match "sleep 0.06", File.read(versions.b.app)
      assert_equal git(dir, "rev-parse", "v1").strip, versions.a.revision
      assert_match(/\Arackbench ab: A = v1 \(\h{12}\), B = HEAD \(\h{12}\)\z/,
                   versions.suite_data("endpoints" => ["/"], "servers" => [{ "server" => "puma" }])["description"])
      versions.cleanup
      refute File.exist?(File.join(checkouts, "A"))
      assert_equal 1, git(dir, "worktree", "list").lines.size, "only the repository's own work tree is left"
      assert_match "sleep 0.06", File.read(File.join(dir, "config.ru")), "the repository's files are as they were"
    end
  end
end
