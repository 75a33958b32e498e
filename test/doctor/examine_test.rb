# frozen_string_literal: true

require "test_helper"

module Rackbench
  module Doctor
    # Doctor.examine on the small apps of test/fixtures/doctor, on a quiet
    # machine of 3 CPUs given as facts (the real machine's swap or CPU
    # governor must not decide what these tests see).
    class ExamineTest < Minitest::Test
      include TestHelpers

      FIXTURES = File.expand_path("../fixtures/doctor", __dir__)

      def quiet_machine(**facts)
        Machine.new(cpus: [0, 1, 2], taskset: true, swap_used_bytes: 0, governors: { 0 => "performance", 1 => "performance",
                                                                                     2 => "performance" },
                    turbo: false, yjit_available: true, results_dir: tmpdir, results_free_bytes: 50 << 30,
                    results_size_bytes: 100 << 30, results_rotational: false, **facts)
      end

      def examine(fixture, machine: quiet_machine, env: {})
        Doctor.examine(Subject.for(File.join(FIXTURES, fixture), env: env), machine)
      end

      def only(findings, check)
        found = findings.select { |f| f.check == check }
        assert_equal 1, found.size, "one #{check} finding in #{findings.map(&:to_s)}"
        found.first
      end

      def test_an_app_in_development_mode_is_named_with_the_puma_config_line_and_the_fix
        finding = only(examine("development"), "environment")

        assert_equal "warning", finding.severity
        assert_match(/runs in development/, finding.message)
        assert_equal "config/puma.rb:5", finding.where
        assert_match(/APP_ENV=production RACK_ENV=production/, finding.fix)
      end

      def test_the_same_app_started_with_rack_env_production_is_not_in_development
        assert_empty(examine("development", env: { "RACK_ENV" => "production" }).select { |f| f.check == "environment" })
      end

      def test_a_rails_pool_below_the_thread_count_names_database_yml_and_the_threads
        finding = only(examine("rails_pool"), "database_pool")

        assert_equal "config/database.yml:3", finding.where
        assert_match(%r{pool 5 is below puma's 16 threads per process \(config/puma.rb:5\)}, finding.message)
        assert_match(/RAILS_MAX_THREADS.*16/, finding.fix)
      end

      def test_a_pool_raised_to_the_thread_count_is_no_finding
        findings = examine("rails_pool", env: { "RAILS_MAX_THREADS" => "16" })

        assert_empty(findings.select { |f| f.check == "database_pool" })
      end

      def test_a_suite_with_more_workers_than_cpus_names_the_suite_line_and_the_fix
        finding = only(examine("workers", machine: quiet_machine(cpus: [0, 1])), "workers_over_cpus")

        assert_match(/runs 4 processes on the 1 CPU\(s\) the server gets/, finding.message)
        assert_match(%r{fixtures/doctor/workers/rackbench.yml:6 servers.0.workers\z}, finding.where)
        assert_match(/workers: 1 at most/, finding.fix)
      end

      def test_a_server_entrys_own_development_env_is_named_at_its_key
        path = File.join(tmpdir, "rackbench.yml")
        File.write(path, File.read(File.join(FIXTURES, "workers", "rackbench.yml"))
                             .sub("yjit: true}", "yjit: true, env: {RAILS_ENV: development}}"))
        finding = only(Doctor.examine(Subject.for(path, env: {}), quiet_machine(cpus: [0, 1, 2, 3, 4])), "environment")

        assert_match(/rackbench.yml:6 servers.0.env.RAILS_ENV\z/, finding.where)
        assert_match(/RAILS_ENV: production/, finding.fix)
      end

      def test_every_built_in_suite_can_be_examined_and_clients_become_the_concurrency
        Suite.builtin_names.each { |name| Doctor.examine(Subject.for(name, env: {}), quiet_machine) }
        shapes = Subject.for("torquebox-2011", env: {}).shapes

        assert(shapes.any? { |s| s.where["threads"]&.include?("servers.") && s.threads.is_a?(Integer) })
      end

      def test_a_clean_app_gives_no_finding
        assert_empty examine("clean")
      end

      def test_the_machine_gives_its_own_findings_on_the_clean_app
        machine = quiet_machine(cpus: [0], swap_used_bytes: 300 << 20, governors: {}, turbo: nil,
                                results_free_bytes: 200 << 20, results_rotational: true)
        checks = examine("clean", machine: machine).map(&:check)

        assert_equal %w[cpu_frequency results_disk results_disk shared_cpus swap workers_over_cpus], checks.sort
      end

      def test_pinning_turned_off_in_a_suite_is_named_at_its_key
        path = File.join(tmpdir, "rackbench.yml")
        File.write(path, File.read(File.join(FIXTURES, "clean", "rackbench.yml")).sub("app: config.ru",
                                                                                      "app: rack\npin: false")
                                                                               .sub("endpoints: [/]", "endpoints: [/hello]"))
        finding = only(Doctor.examine(Subject.for(path, env: {}), quiet_machine), "shared_cpus")

        assert_match(/rackbench.yml:4 pin\z/, finding.where)
      end
    end
  end
end
