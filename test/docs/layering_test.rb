# frozen_string_literal: true

require "test_helper"
require "tmpdir"
require_relative "../../rakelib/docs/layering"

module Rackbench
  # The stages of lib/rackbench stand on rungs (Docs::Layering::RUNGS): a
  # stage names its own rung and those below, never one above, and
  # doc/architecture.md's picture is what the code's references give today.
  class LayeringTest < Minitest::Test
    Layering = Docs::Layering

    def layering = @layering ||= Layering.new(File.join(ROOT, "lib"))

    def test_no_stage_names_a_stage_on_a_higher_rung
      assert_empty layering.upward, "a lower stage names a higher one: move the code, or the reference, down"
    end

    def test_every_known_exception_is_still_needed
      assert_empty layering.stale_todo, "Layering::TODO lists references that are gone: take them out"
    end

    def test_every_folder_of_lib_is_a_stage_on_a_rung
      folders = Dir[File.join(ROOT, "lib", "rackbench", "*")].select { |f| File.directory?(f) }.map { |f| File.basename(f) }
      assert_empty folders - Layering::STAGES, "a new folder needs its rung in Layering::RUNGS"
    end

    def test_the_architecture_page_shows_the_references_the_code_makes_today
      page = File.read(File.join(ROOT, "doc", "architecture.md"))
      assert_equal Layering.write_into(page, layering.mermaid), page,
                   "doc/architecture.md's picture is out of date: bundle exec rake docs:layering"
    end

    # A copy of lib/ with one more file: the check finds its reference with file and line.
    def upward_with(path, source)
      Dir.mktmpdir do |lib|
        FileUtils.cp_r(File.join(ROOT, "lib", "rackbench"), lib)
        File.write(File.join(lib, "rackbench", path), source)
        Layering.new(lib).upward
      end
    end

    def test_a_results_file_that_names_a_report_is_found_with_its_place
      source = "module Rackbench\n  class Upward\n    def grid = Reports::Grid.new([], [])\n  end\nend\n"
      assert_equal ["results/upward.rb:3 Reports::Grid"], upward_with("results/upward.rb", source)
    end

    # CLI is opened in the file too, but it is defined first in cli.rb: the reference is to the commands.
    def test_trial_naming_a_command_is_found_through_its_nesting
      source = "module Rackbench\n  module CLI\n  end\n  class Trial\n    def x = CLI\n  end\nend\n"
      assert_includes upward_with("trial/upward.rb", source), "trial/upward.rb:5 CLI"
    end
  end
end
