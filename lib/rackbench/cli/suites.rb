# frozen_string_literal: true

module Rackbench
  module CLI
    # rackbench suites: the built-in suites, with their size and description.
    class Suites
      def initialize(argv, out, _err)
        @argv = argv
        @out = out
      end

      def call
        Suite.builtin_names.each do |name|
          suite = Suite.load(name)
          plan = Plan.new(suite)
          @out.puts format("%-22s %4d cells  %s", name, plan.size, suite["description"].to_s.lines.first&.strip)
        rescue ConfigError => e
          # A seed suite can name a proxy or server whose adapter this copy lacks.
          @out.puts format("%-22s  cannot load: %s", name, e.message)
        end
        0
      end
    end
  end
end
