# frozen_string_literal: true

require "test_helper"

module Rackbench
  # A seeded computation is kept between processes for its arguments, its
  # code and this Ruby, and computed again when any of them changes.
  class ComputedTest < Minitest::Test
    def setup
      @cache_before = ENV.fetch("XDG_CACHE_HOME", nil)
      ENV["XDG_CACHE_HOME"] = File.join(tmpdir, "cache")
      @source = File.join(tmpdir, "code.rb")
      File.write(@source, "# the code that computes\n")
      @computed = 0
    end

    def teardown
      @cache_before ? ENV["XDG_CACHE_HOME"] = @cache_before : ENV.delete("XDG_CACHE_HOME")
      super
    end

    def fetch(arguments = [3, 0.95])
      Computed.fetch("design", arguments, sources: [@source]) do
        @computed += 1
        [0.5, 1.0 / 3, @computed]
      end
    end

    def test_a_value_is_computed_once_and_read_back_exactly_after
      first = fetch
      assert_equal [first, first], [fetch, fetch]
      assert_equal 1, @computed
      assert_equal 1.0 / 3, fetch[1], "a float read back to the last digit"
      assert_empty Dir[File.join(Computed.dir, "*.tmp")], "nothing half-written left beside it"
    end

    def test_other_arguments_or_changed_code_compute_again
      fetch
      fetch([4, 0.95])
      assert_equal 2, @computed
      File.write(@source, "# the code changed\n")
      assert_equal 3, fetch.last
    end

    def test_a_damaged_file_is_computed_again_and_replaced
      fetch
      Dir[File.join(Computed.dir, "*.json")].each { |f| File.write(f, "{not json") }
      assert_equal 2, fetch.last
      assert_equal 2, fetch.last, "the replaced file is read"
    end

    def test_a_value_whose_code_cannot_be_read_is_computed_each_time
      File.delete(@source)
      assert_equal [1, 2], [fetch.last, fetch.last]
    end

    def test_a_cache_that_cannot_be_written_still_computes
      FileUtils.mkdir_p(File.dirname(Computed.dir))
      File.write(Computed.dir, "a file where the folder would be")
      assert_equal [1, 2], [fetch.last, fetch.last]
    end
  end
end
