# frozen_string_literal: true

require "test_helper"
require "rackbench/reports/article"

module Rackbench
  # Each seed page in doc/seeds/ is what `rackbench report --format article`
  # prints today for its suite's run stored in doc/runs/seeds/NAME (`bundle
  # exec rake docs:runs:seeds docs:seeds` makes them): a report that changes
  # its words changes the pages with it, or this test fails.
  class SeedPagesTest < Minitest::Test
    STORE_DIR = File.join(ROOT, "doc", "runs", "seeds")
    SEEDS = %w[torquebox-2011 thin-nginx-2008 app-servers-2015 puma-vs-unicorn-2016 lighttpd-proxy-2008].freeze
    MAX_BYTES = 20 * 1024 * 1024

    def stored = SEEDS.select { |name| File.exist?(File.join(STORE_DIR, name, Store::FILE)) }

    def test_at_least_one_seed_run_is_stored_and_together_they_stay_within_20_mb
      refute_empty stored, "no seed run in doc/runs/seeds: `bundle exec rake docs:runs:seeds`"
      bytes = stored.sum { |name| File.size(File.join(STORE_DIR, name, Store::FILE)) }
      assert_operator bytes, :<=, MAX_BYTES, "the stored seed runs take #{bytes} bytes"
    end

    SEEDS.each do |name|
      define_method("test_the_#{name.tr("-", "_")}_page_is_the_article_report_of_its_stored_run") do
        skip "#{name}: no run stored in doc/runs/seeds yet" unless stored.include?(name)

        FileUtils.cp(File.join(STORE_DIR, name, Store::FILE), tmpdir) # opening a store migrates it: a copy
        store = Store.new(tmpdir)
        run = store.runs.find { |r| r["suite"] == name && r["status"] == "finished" }
        refute_nil run, "#{name}: the stored run did not finish"
        report = Reports.fetch("article").new(store.run(run["id"]), store.measurements(run["id"])).render
        page = File.read(File.join(ROOT, "doc", "seeds", "#{name}.md"))
        assert_equal report, page, "doc/seeds/#{name}.md is not what the report prints: `bundle exec rake docs:seeds`"
        assert_includes page, "### The article beside this run"
      ensure
        store&.close
      end
    end
  end
end
