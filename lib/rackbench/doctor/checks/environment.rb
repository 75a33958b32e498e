# frozen_string_literal: true

module Rackbench
  module Doctor
    # A non-production environment: development reloads code, checks for
    # changed files and renders full error pages on every request.
    class EnvironmentCheck < Check
      NAME = "environment"

      def findings
        env, where = subject.app_env
        found = env == "production" ? [] : [finding(env, where, fix)]
        found + server_entries
      end

      private

      def finding(env, where, fix)
        warning("the app runs in #{env}, not production: code reloading and development middleware " \
                "make every request slower than in production", where: where, fix: fix)
      end

      # A server entry's own env: (it overrides the suite's for that server).
      def server_entries
        return [] unless subject.suite?

        suite.server_configs.each_with_index.flat_map do |entry, i|
          (entry["env"] || {}).filter_map do |var, value|
            next unless %w[RAILS_ENV APP_ENV RACK_ENV].include?(var.to_s) && value.to_s != "production"

            finding(value, subject.where_key(["servers", i, "env", var.to_s]), "#{var}: production in that env: (or drop it)")
          end
        end
      end

      def fix
        var = files.rails? ? "RAILS_ENV" : "APP_ENV"
        return "env: {#{var}: production} in the suite (or unset #{var} in this shell)" if subject.suite?

        "run the server with #{var}=production RACK_ENV=production, or `environment \"production\"` in config/puma.rb"
      end
    end

    register("environment", EnvironmentCheck)
  end
end
