# frozen_string_literal: true

require "test_helper"
require_relative "../../rakelib/docs/readme_sample"
require_relative "stored_sample"

module Rackbench
  # The README's sample is what `rackbench report` prints today for the quick
  # run stored in doc/runs/quick: a report that changes its words changes the
  # README with it (`bundle exec rake docs:sample`), or this test fails.
  class ReadmeSampleTest < Minitest::Test
    Sample = Docs::ReadmeSample

    include StoredSample

    def test_the_readme_holds_the_sample_the_stored_run_renders_to_now
      readme = File.read(File.join(ROOT, "README.md"))
      assert_equal sample.markdown, Sample.block(readme, "sample"),
                   "README.md's sample is not what `rackbench report` prints for its run: `bundle exec rake docs:sample`"
    end

    def test_the_sample_is_lines_of_the_report_as_printed
      sample = self.sample
      report = sample.report.lines
      excerpt = sample.excerpt.lines
      assert_operator excerpt.size, :>=, 6, "a header, rows, verdicts and warnings"
      assert_empty excerpt - report, "every line of the sample is a line of the report"
      Sample::LABELS.each { |label| assert(excerpt.any? { |l| l.start_with?(label) }, "a row of #{label}") }
    end

    # A README a new user reads through: detail goes to doc/ pages.
    def test_the_readme_stays_within_20_kb
      size = File.size(File.join(ROOT, "README.md"))
      assert_operator size, :<=, 20 * 1024, "README.md is #{size} bytes: move detail into a doc/ page and link it"
    end

    def test_the_image_beside_it_is_drawn
      assert File.exist?(File.join(ROOT, Sample::IMAGE)), "#{Sample::IMAGE}: `bundle exec rake docs:sample` draws it"
    end
  end
end
