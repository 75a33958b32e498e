# frozen_string_literal: true

module Rackbench
  module Doctor
    # A non-production environment: development reloads code, checks for
    # changed files and renders full error pages on every request.
    class EnvironmentCheck < Check
      NAME = "environment"

      def findings
        env, where = subject.app_env
        return [] if env == "production"

        [warning("the app runs in #{env}, not production: code reloading and development middleware " \
                 "make every request slower than in production", where: where, fix: fix)]
      end

      private

      def fix
        var = files.rails? ? "RAILS_ENV" : "APP_ENV"
        return "env: {#{var}: production} in the suite (or unset #{var} in this shell)" if subject.suite?

        "run the server with #{var}=production RACK_ENV=production, or `environment \"production\"` in config/puma.rb"
      end
    end

    register("environment", EnvironmentCheck)
  end
end
