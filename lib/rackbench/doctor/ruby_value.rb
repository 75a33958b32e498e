# frozen_string_literal: true

module Rackbench
  module Doctor
    # The value of the simple Ruby expressions config files use for their
    # numbers and names, without running the file:
    #
    #   value = RubyValue.new(env: {"RAILS_MAX_THREADS" => "8"}, vars: {})
    #   value.of('Integer(ENV.fetch("RAILS_MAX_THREADS") { 5 })')   # => 8
    #   value.of('ENV.fetch("RAILS_ENV", "development")')           # => "development" (env has none)
    #   value.of("threads_count")                                   # => vars["threads_count"]
    #   value.of("compute_it(3)")                                   # => RubyValue::UNKNOWN
    class RubyValue
      UNKNOWN = :"(unknown)"
      DEFAULT = /\s*(?:,\s*(?<default>.+?)\s*\)|\)\s*\{\s*(?<default>.+?)\s*\})\z/
      ENV_FETCH = /\AENV\.fetch\(\s*["'](?<name>\w+)["']#{DEFAULT.source}/
      ENV_INDEX = /\AENV\[\s*["'](?<name>\w+)["']\s*\](?:\s*\|\|\s*(?<default>.+))?\z/

      def initialize(env: {}, vars: {})
        @env = env
        @vars = vars
      end

      # The expression's value (Integer, String, Symbol, true, false, nil) or UNKNOWN.
      def of(expr)
        text = expr.to_s.strip.sub(/\s+#.*\z/, "")
        if (inner = text[/\A(?:Integer|Float)\((.+)\)\z/, 1] || text[/\A\((.+)\)\z/, 1])
          return integer(of(inner))
        end
        return integer(of(text.delete_suffix(".to_i"))) if text.end_with?(".to_i")
        return of(text.delete_suffix(".to_s")).then { |v| v == UNKNOWN ? v : v.to_s } if text.end_with?(".to_s")

        literal(text)
      end

      def self.known?(value) = !value.equal?(UNKNOWN)

      private

      def literal(text)
        case text
        when /\A-?\d+\z/ then text.to_i
        when /\A"([^"\#]*)"\z/, /\A'([^']*)'\z/ then Regexp.last_match(1)
        when /\A:(\w+)\z/ then Regexp.last_match(1).to_sym
        when "true" then true
        when "false" then false
        when "nil" then nil
        when ENV_FETCH, ENV_INDEX then from_env(Regexp.last_match)
        when /\A[a-z_]\w*\z/ then @vars.fetch(text, UNKNOWN)
        else UNKNOWN
        end
      end

      def from_env(match)
        return @env[match[:name]] if @env.key?(match[:name])

        match[:default] ? of(match[:default]) : nil
      end

      def integer(value)
        case value
        when Integer then value
        when /\A\s*-?\d+\s*\z/ then value.to_i
        else UNKNOWN
        end
      end
    end
  end
end
