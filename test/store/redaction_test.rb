# frozen_string_literal: true

require "test_helper"

module Rackbench
  class Store
    class RedactionTest < Minitest::Test
      SUITE = <<~YAML
        name: shop
        env:
          SECRET_KEY_BASE: 9f2c0a1b7d
          DATABASE_URL: "postgres://app:hunter2pw@127.0.0.1/app"
          RAILS_ENV: production
        setup:
          - PGPASSWORD=hunter2pw bin/rails db:prepare
        servers:
          - {server: puma, env: {API_KEY: abc, THREADS: 4}}
          - server: unicorn
            env:
              DB_PASSWORD: |
                two
                lines
        endpoints: [/]
      YAML

      def data = Psych.safe_load(SUITE)
      def redaction(key: "k1", data: self.data) = Redaction.new(Suite::Secrets.new(data), key: key)

      def test_no_secret_value_is_left_in_the_suite_file_and_it_stays_yaml
        text = redaction.yaml(SUITE)
        %w[9f2c0a1b7d hunter2pw abc two].each { |secret| refute_includes text, secret }
        back = Psych.safe_load(text)
        assert_equal "production", back.dig("env", "RAILS_ENV")
        assert_equal 4, back.dig("servers", 0, "env", "THREADS")
        assert_match %r{\Apostgres://app:\[redacted:\h{8}\]@127\.0\.0\.1/app\z}, back.dig("env", "DATABASE_URL")
        assert_equal "endpoints: [/]\n", text.lines.last, "a block scalar's line end is kept"
      end

      def test_the_suite_file_and_its_data_carry_the_same_markers
        assert_equal redaction.data(data), Psych.safe_load(redaction.yaml(SUITE))
      end

      def test_a_value_has_one_marker_in_a_store_and_another_in_another_store
        assert_equal redaction.marker("hunter2pw"), redaction.marker("hunter2pw")
        refute_equal redaction.marker("hunter2pw"), redaction.marker("hunter2pX")
        refute_equal redaction(key: "k1").marker("hunter2pw"), redaction(key: "k2").marker("hunter2pw")
        assert_match(/\A\[redacted:\h{8}\]\z/, redaction.marker("hunter2pw"))
      end

      def test_free_text_loses_long_secrets_and_url_passwords_but_keeps_short_words
        line = redaction.text("abc: connecting to mysql://root:pw@db/x with 9f2c0a1b7d")
        assert_equal "abc: connecting to mysql://root:#{redaction.marker("pw")}@db/x with #{redaction.marker("9f2c0a1b7d")}",
                     line
      end

      def test_a_marked_url_is_not_marked_again
        once = redaction.text("postgres://app:hunter2pw@127.0.0.1/app")
        assert_equal once, redaction.text(once)
      end

      def test_public_env_values_are_kept_as_typed
        hide = redaction(data: data.merge("public_env" => %w[DATABASE_URL]))
        assert_equal "postgres://app:hunter2pw@127.0.0.1/app", hide.data(data).dig("env", "DATABASE_URL")
      end

      def test_files_of_a_run_folder_lose_their_secrets_and_the_others_are_left_alone
        log = File.join(tmpdir, "d1", "server.log")
        FileUtils.mkdir_p(File.dirname(log))
        File.binwrite(log, "boot\n\xFF cannot reach postgres://app:hunter2pw@db/app\n".b)
        File.write(File.join(tmpdir, "d1", "clean.log"), "ok\n")
        before = File.mtime(File.join(tmpdir, "d1", "clean.log"))
        redaction.scrub_files(tmpdir)
        assert_equal "boot\n\xFF cannot reach postgres://app:#{redaction.marker("hunter2pw")}@db/app\n".b, File.binread(log)
        assert_equal before, File.mtime(File.join(tmpdir, "d1", "clean.log"))
      end

      def test_what_rackbench_prints_through_it_keeps_the_secrets_out
        out = StringIO.new
        printed = RedactedOutput.new(out, redaction)
        printed.puts "SECRET_KEY_BASE=9f2c0a1b7d", %w[a b]
        printed.print "x 9f2c0a1b7d"
        printed << " y 9f2c0a1b7d\n"
        refute_includes out.string, "9f2c0a1b7d"
        assert_equal "SECRET_KEY_BASE=#{redaction.marker("9f2c0a1b7d")}\na\nb\n", out.string.lines.first(3).join
      end

      def test_restore_puts_back_each_value_from_the_suite_file_where_its_marker_matches
        stored = redaction.data(data)
        assert_equal data, redaction.restore(stored, data)
      end

      def test_restore_names_the_key_whose_value_changed_in_the_suite_file
        stored = redaction.data(data)
        changed = data.tap { |d| d["env"]["SECRET_KEY_BASE"] = "another" }
        error = assert_raises(ConfigError) { redaction.restore(stored, changed) }
        assert_match(/\Aenv\.SECRET_KEY_BASE: its value was kept secret \(stored as "\[redacted:\h{8}\]"\)/, error.message)
      end
    end
  end
end
