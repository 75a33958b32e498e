# frozen_string_literal: true

require "test_helper"

module Rackbench
  module Doctor
    # What doctor looks at: a suite's server configs, or an app's own server
    # files, each value with where it came from (the suite's key, the file's
    # line, the server's default from its adapter).
    class SubjectTest < Minitest::Test
      def app(files)
        dir = File.join(tmpdir, "app")
        FileUtils.mkdir_p(File.join(dir, "config"))
        File.write(File.join(dir, "config.ru"), "run ->(_) { [200, {}, []] }\n")
        files.each { |name, text| File.write(File.join(dir, name), text) }
        dir
      end

      def test_an_apps_own_puma_file_gives_its_shape_with_each_line
        dir = app("config/puma.rb" => "workers 3\nthreads 2, 8\npreload_app!\n")
        shape = Subject.for(dir, env: {}).shapes.find { |s| s.server == "puma" }
        assert_equal [3, 8, true], [shape.workers, shape.threads, shape.preload]
        assert_equal "config/puma.rb:2", shape.where["threads"]
        assert_equal "puma's default (5)",
                     Subject.for(app("config/puma.rb" => "workers 2\n"), env: {}).shapes.first.where["threads"]
      end

      def test_a_unicorn_file_reads_its_directives_and_one_thread_by_design
        shape = Subject.for(app("config/unicorn.rb" => "worker_processes 4\n"), env: {}).shapes.first
        assert_equal ["unicorn", 4, 1], [shape.server, shape.workers, shape.threads]
        assert_equal "unicorn's default (1)", shape.where["threads"]
      end

      def test_a_suites_value_names_its_file_line_and_key
        path = write_suite("servers" => [{ "server" => "puma", "workers" => 2, "threads" => 4 }])
        shape = Subject.for(path, env: {}).shapes.first
        assert_equal [2, 4], [shape.workers, shape.threads]
        line = File.readlines(path).index { |l| l.include?("workers: 2") } + 1
        assert_equal "#{path}:#{line} servers.0.workers", shape.where["workers"]
      end

      def test_a_folder_with_neither_an_app_nor_a_suite_is_one_clear_error
        empty = File.join(tmpdir, "empty")
        FileUtils.mkdir_p(empty)
        error = assert_raises(ConfigError) { Subject.for(empty, env: {}) }
        assert_equal "#{empty}: no config.ru and no rackbench.yml (doctor takes a suite, or an app's folder)", error.message
      end

      def test_the_apps_environment_is_its_framework_variable_else_its_puma_file
        dir = app("config/puma.rb" => "environment \"staging\"\n")
        assert_equal ["staging", "config/puma.rb:1"], Subject.for(dir, env: {}).app_env
        assert_equal "production", Subject.for(dir, env: { "APP_ENV" => "production" }).app_env.first
      end
    end
  end
end
