# frozen_string_literal: true

module Rackbench
  class Suite
    # Which of a suite's values must never be stored, reported or logged
    # (Store::Redaction keeps them out, as a marker with a digest):
    #
    #   - an env variable whose name looks secret (KEY, SECRET, TOKEN,
    #     PASSWORD, PASSWD, CREDENTIAL in it: SECRET_KEY_BASE, API_TOKEN,
    #     AWS_SECRET_ACCESS_KEY), in the suite's env: or a server entry's;
    #   - every variable of the suite's env_file (EnvFile), whatever its name;
    #   - the password of any URL in an env value (postgres://app:PASSWORD@host/db);
    #
    # except the names listed in public_env:, stored as typed.
    #
    #   secrets = Suite::Secrets.of(suite)
    #   secrets.values                        # => ["9f2c...", "PASSWORD"]: what must not appear anywhere
    #   secrets.name?("SECRET_KEY_BASE")      # => true (its value is hidden whatever it is)
    #   Suite::Secrets.new(run["settings"])   # a stored suite's data: no env_file values
    #   Suite::Secrets.none                   # names and URL passwords only: for a run whose suite is not at hand
    class Secrets
      NAME = /KEY|SECRET|TOKEN|PASSW(?:OR)?D|CREDENTIAL/i
      # user:password@ in a URL: the password is group 2.
      URL_PASSWORD = %r{(\w[\w+.-]*://[^:/@\s]*):([^@/\s]+)@}

      def self.none = new({})
      def self.of(suite) = new(suite.data, file: suite.env_file)

      # data: a suite's data (its env: mappings and public_env:); file: the env_file's variables.
      def initialize(data, file: {})
        @public = Array(data["public_env"]).map(&:to_s)
        @file = file
        @typed = env_hashes(data)
      end

      # Whether NAME's value is kept out (its name looks secret and it is not public_env).
      def name?(name) = name.to_s.match?(NAME) && !@public.include?(name.to_s)

      def public?(name) = @public.include?(name.to_s)

      # Every secret value of the suite, longest first (so a value inside another is found after it).
      def values
        @values ||= begin
          listed = @file.reject { |k, _| public?(k) }.values +
                   @typed.flat_map { |env| env.select { |k, _| name?(k) }.values.map(&:to_s) }
          passwords = (@file.to_a + @typed.flat_map(&:to_a)).reject { |k, _| public?(k) }
                                                            .flat_map { |_, v| url_passwords(v.to_s) }
          (listed + passwords).reject(&:empty?).uniq.sort_by { |v| -v.size }
        end
      end

      def url_passwords(text) = text.scan(URL_PASSWORD).map(&:last)

      private

      # Every env: mapping of the suite's data: the suite's, each server
      # entry's, and those inside smoke:/scale: blocks.
      def env_hashes(node)
        case node
        when Hash
          node.flat_map { |k, v| k == "env" && v.is_a?(Hash) ? [v] : env_hashes(v) }
        when Array then node.flat_map { |v| env_hashes(v) }
        else []
        end
      end
    end
  end
end
