# frozen_string_literal: true

module Rackbench
  module CLI
    # rackbench suites: the built-in suites, with their size and description.
    class Suites < Command
      def call
        rows = Suite.builtin_names.map do |name|
          suite = Suite.load(name)
          [name, Plan.new(suite).size, suite["description"].to_s.lines.first&.strip]
        rescue ConfigError => e
          # A seed suite can name a proxy or server whose adapter this copy lacks.
          [name, nil, "cannot load: #{e.message}"]
        end
        @out.print Reports::Grid.new(%w[Suite Cells Description], rows, align: %i[left right left]).text
        0
      end
    end
  end
end
