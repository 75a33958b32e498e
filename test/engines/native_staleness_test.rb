# frozen_string_literal: true

require "test_helper"

module Rackbench
  module Engines
    # A binary older than its C sources (a pull without bin/setup) is named
    # with the files that changed, instead of failing later on its JSON.
    class NativeStalenessTest < Minitest::Test
      def build(at:, sources:)
        binary = File.join(tmpdir, "rackbench-load")
        sources.each do |name, mtime|
          File.write(File.join(tmpdir, name), "")
          File.utime(mtime, mtime, File.join(tmpdir, name))
        end
        File.write(binary, "")
        File.utime(at, at, binary)
        binary
      end

      def test_sources_changed_after_the_build_are_named
        now = Time.now
        binary = build(at: now - 60, sources: { "main.c" => now, "worker.h" => now - 1, "net.c" => now - 120 })
        assert_equal %w[main.c worker.h], Engines.fetch("native").stale_sources(binary)
      end

      def test_a_binary_built_after_its_sources_is_current
        now = Time.now
        binary = build(at: now, sources: { "main.c" => now - 60 })
        assert_empty Engines.fetch("native").stale_sources(binary)
      end

      def test_the_built_engine_of_this_tree_is_current
        assert_nil Engines.fetch("native").new.unavailable_reason, "bin/setup builds the engine after checking out its sources"
      end
    end
  end
end
