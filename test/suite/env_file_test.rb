# frozen_string_literal: true

require "test_helper"

module Rackbench
  class Suite
    class EnvFileTest < Minitest::Test
      def env_file(text)
        File.join(tmpdir, "app.env").tap { |path| File.write(path, text) }
      end

      def test_lines_read_as_dotenv_writes_them
        path = env_file(<<~ENV)
          # a comment, then a blank line

          SECRET_KEY_BASE=9f2c0a
          export DATABASE_URL = postgres://app:pw@127.0.0.1/app   # the app's database
          GREETING="two \\"words\\"\\n"
          RAW='kept $as # typed'
          EMPTY=
        ENV
        assert_equal({ "SECRET_KEY_BASE" => "9f2c0a", "DATABASE_URL" => "postgres://app:pw@127.0.0.1/app",
                       "GREETING" => "two \"words\"\n", "RAW" => "kept $as # typed", "EMPTY" => "" }, EnvFile.read(path))
      end

      def test_text_is_what_read_gives_back
        vars = { "A" => "x y", "B" => "a\"b\\c\nd\te", "C" => "postgres://u:p@h/db", "D" => "#x", "E" => "", "F" => "it's" }
        assert_equal vars, EnvFile.read(env_file(EnvFile.text(vars)))
        assert_equal "C=postgres://u:p@h/db\n", EnvFile.text(vars.slice("C")), "plain values stay bare"
      end

      def test_a_line_that_is_no_assignment_names_the_file_and_line
        path = env_file("A=1\nnot an assignment\n")
        error = assert_raises(ConfigError) { EnvFile.read(path) }
        assert_equal "#{path}:2: expected NAME=VALUE, got \"not an assignment\"", error.message
      end

      def test_an_unclosed_quote_names_the_file_line_and_name
        path = env_file("A=1\nTOKEN=\"abc\n")
        error = assert_raises(ConfigError) { EnvFile.read(path) }
        assert_equal "#{path}:2: TOKEN: an unclosed \" quote", error.message
      end

      def test_a_missing_file_is_a_config_error_naming_it
        error = assert_raises(ConfigError) { EnvFile.read(File.join(tmpdir, "none.env")) }
        assert_match(/\Aenv_file .*none\.env: No such file or directory\z/, error.message)
      end
    end
  end
end
