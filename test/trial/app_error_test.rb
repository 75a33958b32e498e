# frozen_string_literal: true

require "test_helper"

module Rackbench
  # The app's own error, read from logs as servers really print them (the
  # texts below are puma 8, iodine 0.7 and unicorn 6 logs of the fixture
  # apps, paths shortened).
  class AppErrorTest < Minitest::Test
    APP = "/srv/shop"

    PUMA_CONFIG = <<~LOG
      config/puma.rb:1:in `fetch': key not found: "WEB_CONCURRENCY" (KeyError)
      \tfrom config/puma.rb:1:in `_load_from'
      \tfrom /var/lib/gems/3.1.0/gems/puma-8.0.2/lib/puma/dsl.rb:136:in `instance_eval'
      \tfrom /var/lib/gems/3.1.0/gems/puma-8.0.2/lib/puma/configuration.rb:262:in `load'
    LOG

    IODINE_APP = <<~LOG
      /srv/shop/db.rb:2:in `fetch': key not found: "THREADS" (KeyError)
      \tfrom /srv/shop/db.rb:2:in `<top (required)>'
      \tfrom config.ru:1:in `require_relative'
      \tfrom /var/lib/gems/3.1.0/gems/rack-3.2.8/lib/rack/builder.rb:108:in `eval'
      \tfrom /var/lib/gems/3.1.0/gems/iodine-0.7.60/exe/iodine:219:in `try_file'
    LOG

    UNICORN_BIND = <<~LOG
      E, [2026-11-23T18:11:18.228461 #9347] ERROR -- : retrying in 0.5 seconds (0 tries left)
      E, [2026-11-23T18:11:18.730296 #9347] ERROR -- : adding listener failed addr=127.0.0.1:45111 (in use)
      /var/lib/gems/3.1.0/gems/unicorn-6.1.0/lib/unicorn/socket_helper.rb:165:in `bind': Address already in use - bind(2) for 127.0.0.1:45111 (Errno::EADDRINUSE)
      \tfrom /var/lib/gems/3.1.0/gems/unicorn-6.1.0/lib/unicorn/socket_helper.rb:165:in `bind_listen'
    LOG

    def test_an_uncaught_exception_is_placed_at_the_apps_own_file_and_line
      assert_equal 'config/puma.rb:1: key not found: "WEB_CONCURRENCY" (KeyError)', AppError.find(PUMA_CONFIG, app_dir: APP)
      assert_equal 'db.rb:2: key not found: "THREADS" (KeyError)', AppError.find(IODINE_APP, app_dir: APP)
    end

    def test_an_error_inside_a_gem_is_shown_at_the_gems_file
      assert_equal "unicorn-6.1.0/lib/unicorn/socket_helper.rb:165: Address already in use - bind(2) for " \
                   "127.0.0.1:45111 (Errno::EADDRINUSE)", AppError.find(UNICORN_BIND, app_dir: APP)
    end

    def test_the_last_exception_printed_is_the_one_the_process_died_of
      log = "#{IODINE_APP}* Restarting\n#{PUMA_CONFIG}"
      assert_match(%r{\Aconfig/puma\.rb:1: .*WEB_CONCURRENCY}, AppError.find(log, app_dir: APP))
    end

    def test_a_multi_line_message_keeps_its_first_line_and_the_frames_after_it
      log = "/srv/shop/boot.rb:3:in `<top (required)>': no database configured (RuntimeError)\n" \
            "set DATABASE_URL\n\tfrom /srv/shop/config.ru:1:in `require_relative'\n"
      assert_equal "boot.rb:3: no database configured (RuntimeError)", AppError.find(log, app_dir: APP)
    end

    def test_a_loggers_error_line_is_read_with_the_frame_that_follows
      log = "E, [2026-11-23T18:01:05.752356 #29707] ERROR -- : key not found: \"X\" (KeyError)\n" \
            "/srv/shop/lib/pool.rb:2:in `fetch'\n/srv/shop/lib/pool.rb:2:in `<main>'\n"
      assert_equal 'lib/pool.rb:2: key not found: "X" (KeyError)', AppError.find(log, app_dir: APP)
    end

    def test_frames_in_the_apps_vendored_gems_are_not_the_apps_own
      log = "/srv/shop/vendor/bundle/ruby/3.1.0/gems/pg-1.5.0/lib/pg.rb:9:in `connect': " \
            "connection refused (PG::ConnectionBad)\n\tfrom /srv/shop/db.rb:4:in `<top (required)>'\n"
      assert_equal "db.rb:4: connection refused (PG::ConnectionBad)", AppError.find(log, app_dir: APP)
    end

    def test_without_an_exception_the_last_line_that_reads_like_a_failure_is_taken
      log = "starting\nERROR: could not open config file\nbye\n"
      assert_equal "ERROR: could not open config file", AppError.find(log, app_dir: APP)
    end

    def test_a_log_without_a_failure_has_no_app_error
      assert_nil AppError.find("Puma starting in single mode...\n* Listening on http://127.0.0.1:9292\n", app_dir: APP)
      assert_nil AppError.find("", app_dir: APP)
    end

    def test_a_very_long_line_is_cut
      log = "/srv/shop/a.rb:1:in `x': #{"y" * 1000} (RuntimeError)\n"
      assert_equal AppError::MAX_CHARS, AppError.find(log, app_dir: APP).length
    end
  end
end
