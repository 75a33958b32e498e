# frozen_string_literal: true

require "test_helper"

module Rackbench
  # What tune, init, doctor and provenance know of a server comes from its
  # adapter file: adding a server is adding that file.
  class AdapterFactsTest < Minitest::Test
    def test_every_tuned_value_is_one_its_knob_takes
      Servers.all.select(&:tune_space).each do |adapter|
        adapter.tune_space.merge(adapter.tune_fixed.transform_values { |v| [v] }).each do |knob, values|
          declared = adapter.knob_schema.fetch(knob) { flunk "#{adapter.server_name} tunes #{knob}, which it does not declare" }
          values.each { |v| assert_nil declared.problem(v), "#{adapter.server_name} #{knob} #{v}" }
        end
      end
    end

    def test_tune_knows_the_servers_whose_adapters_say_what_to_tune
      assert_equal "puma", Tune::Space.servers.first, "tune's default server comes first"
      assert_equal Servers.all.select(&:tune_space).map(&:server_name).sort, Tune::Space.servers.sort
      assert_equal %w[yjit malloc preload fork_worker], Tune::Space.switches
    end

    def test_every_starter_entry_is_a_config_its_server_accepts_and_each_rank_is_taken_once
      starters = Servers.all.select(&:starter_rank)
      starters.each { |adapter| Servers.fetch(adapter.server_name).new(adapter.starter_entry).validate! }
      assert_equal starters.size, starters.map(&:starter_rank).uniq.size
      assert_equal({ "server" => "unicorn", "workers" => 2 }, Servers.fetch("unicorn").starter_entry)
    end

    def test_every_fact_doctor_reads_is_about_a_key_the_server_has_or_a_file_it_reads
      Servers.all.each do |adapter|
        facts = adapter.facts
        [*facts.fetch(:by_design, {}).keys, *facts.fetch(:follows, {}).keys, *facts.fetch(:unsaid, {}).keys].each do |key|
          assert_includes Doctor::Subject::KEYS, key, "#{adapter.server_name}'s fact about #{key}"
        end
        facts.fetch(:follows, {}).each_value { |knob, _| assert adapter.knob_schema.key?(knob), "#{adapter.server_name} #{knob}" }
        assert facts[:directives], "#{adapter.server_name} names a config file it has no directives for" if facts[:config_file]
      end
    end

    def test_doctor_reads_a_pitchfork_file_as_unicorns_and_an_app_file_where_its_adapter_says
      assert_equal Servers.fetch("unicorn").facts[:directives], Doctor::ServerFile.directives("pitchfork")
      assert_equal({ "puma" => "config/puma.rb", "unicorn" => "config/unicorn.rb" }, Doctor::ServerFile.app_files)
      assert_equal([1, true], %w[threads preload].map { |key| Doctor::ServerDefaults.value("pitchfork", key) })
    end

    def test_provenance_keeps_the_version_of_every_adapters_gem
      gems = Servers.names.map { |name| Servers.fetch(name).gem_name }.compact
      assert_empty gems - Environment.gems
      assert_includes Environment.gems, "passenger", "passenger runs from its package, but its gem's version is kept when there"
      assert_equal Servers.fetch("puma").version, Environment.gem_versions["puma"]
    end
  end
end
