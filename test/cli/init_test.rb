# frozen_string_literal: true

require "test_helper"
require "yaml"

module Rackbench
  # `rackbench init --no-probe`: a starter suite from the app's files alone,
  # written once (test/integration/init_test.rb starts the servers).
  class CliInitTest < Minitest::Test
    def app_dir
      dir = File.join(tmpdir, "shop")
      FileUtils.mkdir_p(dir)
      File.write(File.join(dir, "config.ru"), "run ->(_env) { [200, {}, ['ok']] }\n")
      dir
    end

    def test_without_probing_it_writes_a_suite_named_for_the_app_with_nothing_claimed_to_answer
      dir = app_dir
      status, out, err = run_cli("init", "--no-probe", dir)
      assert_equal 0, status, err
      path = File.join(dir, "rackbench.yml")
      assert_includes out, "wrote #{path}; run it with: rackbench run rackbench.yml --smoke"
      suite = YAML.safe_load_file(path)
      assert_equal ["shop", "config.ru", []], suite.values_at("name", "app", "endpoints")
      assert_equal [Servers.fetch("puma").starter_entry], suite["servers"], "no server in its bundle: puma suggested"
    end

    def test_it_replaces_a_suite_only_when_forced_and_takes_one_folder
      dir = app_dir
      File.write(File.join(dir, "rackbench.yml"), "mine\n")
      status, _, err = run_cli("init", "--no-probe", dir)
      assert_equal 2, status
      assert_includes err, "#{File.join(dir, "rackbench.yml")} exists: pass --force to replace it, or --output FILE"
      assert_equal "mine\n", File.read(File.join(dir, "rackbench.yml"))
      status, _, err = run_cli("init", "--no-probe", dir, tmpdir)
      assert_equal 2, status
      assert_includes err, "init takes one APP_DIR, got #{dir} #{tmpdir}"
    end
  end
end
