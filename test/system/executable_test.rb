# frozen_string_literal: true

require "test_helper"

module Rackbench
  # One lookup for every program rackbench runs: PATH in order, then the
  # folders a caller adds; folders and plain files do not count.
  class ExecutableTest < Minitest::Test
    def setup
      @first = File.join(tmpdir, "first")
      @second = File.join(tmpdir, "second")
      [@first, @second].each { |dir| FileUtils.mkdir_p(dir) }
    end

    def tool(dir, name, mode: 0o755)
      path = File.join(dir, name)
      File.write(path, "#!/bin/sh\n")
      File.chmod(mode, path)
      path
    end

    def with_path(*dirs, &)
      old = ENV.fetch("PATH", nil)
      ENV["PATH"] = dirs.join(File::PATH_SEPARATOR)
      yield
    ensure
      ENV["PATH"] = old
    end

    def test_the_first_folder_of_path_wins
      tool(@second, "engine")
      first = tool(@first, "engine")
      with_path(@first, @second) { assert_equal first, Executable.find("engine") }
    end

    def test_a_file_that_cannot_run_and_a_folder_are_not_programs
      tool(@first, "engine", mode: 0o644)
      FileUtils.mkdir_p(File.join(@first, "tool"))
      with_path(@first) do
        assert_nil Executable.find("engine")
        refute Executable.available?("tool")
      end
    end

    def test_the_folders_a_caller_adds_come_after_path
      sbin = tool(@second, "haproxy")
      with_path(@first) do
        assert_nil Executable.find("haproxy")
        assert_equal sbin, Executable.find("haproxy", also_in: [@second])
      end
    end

    def test_a_pair_of_programs_is_found_only_in_a_folder_holding_both
      tool(@first, "initdb")
      tool(@second, "initdb")
      tool(@second, "postgres")
      with_path(@first, @second) { assert_equal @second, Executable.folder_with(%w[initdb postgres]) }
    end
  end
end
