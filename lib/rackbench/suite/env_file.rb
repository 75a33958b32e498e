# frozen_string_literal: true

module Rackbench
  class Suite
    # The suite's env_file: variables every server gets, read from a file
    # that rackbench never stores (Secrets keeps its values out of the
    # store, the reports and the logs). One NAME=VALUE a line, as dotenv
    # writes them:
    #
    #   # comments and blank lines are skipped
    #   SECRET_KEY_BASE=9f2c...
    #   export DATABASE_URL=postgres://app:pw@127.0.0.1/app
    #   GREETING="two words\n"     # double quotes: \n, \" and \\ escapes
    #   RAW='kept $as typed'       # single quotes: as typed
    #
    #   EnvFile.read(".env.rackbench")   # => {"SECRET_KEY_BASE" => "9f2c...", ...}; ConfigError naming file:line
    #   EnvFile.text({"A" => "x y"})     # => "A=\"x y\"\n": what read reads back
    module EnvFile
      LINE = /\A\s*(?:export\s+)?(?<name>[A-Za-z_][A-Za-z0-9_]*)\s*=\s*(?<value>.*?)\s*\z/
      ESCAPES = { "n" => "\n", "t" => "\t", '"' => '"', "\\" => "\\" }.freeze

      module_function

      def read(path)
        File.readlines(path, chomp: true).each_with_index.with_object({}) do |(line, i), env|
          next if line.strip.empty? || line.lstrip.start_with?("#")

          found = LINE.match(line) or raise ConfigError, "#{path}:#{i + 1}: expected NAME=VALUE, got #{line[0, 40].inspect}"
          env[found[:name]] = value(found[:value]) { |why| raise ConfigError, "#{path}:#{i + 1}: #{found[:name]}: #{why}" }
        end
      rescue Errno::ENOENT, Errno::EACCES, Errno::EISDIR => e
        raise ConfigError, "env_file #{path}: #{e.message.sub(/ @ .*/m, "")}"
      end

      # The value as typed: quoted ('...' as is, "..." with escapes), or bare up to a " #" comment.
      def value(text)
        if (quoted = text.match(/\A'([^']*)'\s*(?:#.*)?\z/)) then quoted[1]
        elsif (quoted = text.match(/\A"((?:[^"\\]|\\.)*)"\s*(?:#.*)?\z/)) then unescape(quoted[1])
        elsif text.start_with?("'", '"') then yield("an unclosed #{text[0]} quote")
        else text.sub(/\s+#.*\z/, "")
        end
      end

      # The lines that read gives vars back from: bare when the value is plain, else double-quoted.
      def text(vars)
        vars.map do |name, value|
          value = value.to_s
          plain = value.match?(%r{\A[\w.,:/@%+=-]*\z}) && !value.start_with?("#")
          "#{name}=#{plain ? value : %("#{value.gsub(/[\\"]/) { |c| "\\#{c}" }.gsub("\n", "\\n").gsub("\t", "\\t")}")}\n"
        end.join
      end

      def unescape(text) = text.gsub(/\\(.)/) { ESCAPES.fetch(Regexp.last_match(1), "\\#{Regexp.last_match(1)}") }
    end
  end
end
