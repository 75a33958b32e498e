# frozen_string_literal: true

require "test_helper"
require "optparse"

module Rackbench
  module CLI
    class SuiteSettingsTest < Minitest::Test
      def overrides_from(*argv)
        overrides = {}
        OptionParser.new do |o|
          SuiteSettings.load(o, overrides)
          SuiteSettings.statistics(o, overrides)
        end.parse!(argv)
        overrides
      end

      def test_each_option_writes_the_setting_the_suite_reads
        overrides = overrides_from("--duration", "3", "--warmup", "1.5", "--concurrency", "1,8", "--no-pin",
                                   "--deployments", "6", "--windows", "1", "--max-deployments", "12",
                                   "--precision", "0.03", "--margin", "0.1")
        assert_equal({ "duration_s" => 3.0, "warmup_s" => 1.5, "concurrency" => [1, 8], "pin" => false,
                       "deployments" => 6, "windows" => 1, "max_deployments" => 12, "precision" => 0.03,
                       "margin" => 0.1 }, overrides)
      end

      def test_repeats_take_a_number_or_auto
        assert_equal 5, overrides_from("--repeats", "5")["repeats"]
        assert_equal "auto", overrides_from("--repeats", "auto")["repeats"]
      end

      def test_options_not_given_leave_the_suite_file_in_charge
        assert_empty overrides_from
      end

      def test_the_help_says_the_default_a_suite_without_the_setting_gets
        help = OptionParser.new { |o| SuiteSettings.statistics(o, {}) }.help
        suite = Suite.new("name: bare\nendpoints: [/hello]\nservers: [{server: puma}]\n", path: "bare.yml")
        { "--deployments" => "deployments", "--windows" => "windows", "--max-deployments" => "max_deployments",
          "--precision" => "precision", "--margin" => "margin" }.each do |option, key|
          said = help[/^\s+#{option} \S+\s.*\(default ([\d.]+)\)$/, 1]
          assert_equal suite[key].to_s, said, "#{option} in the help"
        end
      end

      def test_the_overrides_are_settings_a_suite_accepts
        suite = Suite.load("quick", overrides: overrides_from("--duration", "3", "--deployments", "6", "--smoke"))
        assert_in_delta 3.0, suite["duration_s"], 1e-12
      end
    end
  end
end
