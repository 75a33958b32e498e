# frozen_string_literal: true

require "test_helper"
require_relative "../../rakelib/docs/explain_sample"
require_relative "stored_sample"

module Rackbench
  # doc/explain.md, doc/capacity.md and the README's "Why is it slow?" hold
  # what `rackbench explain` prints today for the runs stored in
  # doc/runs/explain: a report that changes its words changes the pages with
  # it (`bundle exec rake docs:explain`), or this test fails.
  class ExplainSampleTest < Minitest::Test
    Sample = Docs::ExplainSample

    include StoredSample

    def test_each_page_holds_what_rackbench_explain_prints_for_its_stored_run_now
      sample.blocks.each do |(page, name), text|
        assert_equal text, Sample.block(File.read(File.join(ROOT, page)), name),
                     "#{page}'s #{name} block is not what `rackbench explain` prints for its run: `bundle exec rake docs:explain`"
      end
    end

    def test_the_readme_shows_the_sleep_rows_of_the_why_section_and_the_command
      readme = sample.blocks.fetch(["README.md", "why"])
      assert_match(%r{^\$ rackbench explain \d+ --results doc/runs/explain$}, readme)
      assert_match(/^Why: latency inside the server, split$/, readme)
      assert_match(/^puma x0:1 +4 /, readme)
      refute_match(/fibonacci|Capacity/, readme, "the README shows one table; doc/explain.md has the rest")
    end
  end
end
