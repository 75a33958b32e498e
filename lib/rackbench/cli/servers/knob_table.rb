# frozen_string_literal: true

module Rackbench
  module CLI
    class Servers < Command
      # `rackbench servers --knobs`: every key a suite takes, then every knob
      # of every server, proxy and service, each as its Knob declares it
      # (what it takes, its default, its meaning): printed from the
      # declarations that check a suite, so the listing cannot drift from
      # the checks.
      #
      #   KnobTable.new.grid.markdown   # | Kind | Name | Knob | Takes | Default | Meaning |
      class KnobTable
        HEADERS = %w[Kind Name Knob Takes Default Meaning].freeze
        ADAPTERS = { "server" => Rackbench::Servers, "proxy" => Rackbench::Proxies, "service" => Rackbench::Services }.freeze

        def grid = Reports::Grid.new(HEADERS, rows, left: HEADERS.size)

        def rows
          suite = Suite::KEYS.values.map { |knob| row("suite", "-", knob) }
          suite + ADAPTERS.flat_map do |kind, registry|
            registry.all.flat_map { |adapter| adapter.knob_schema.values.map { |knob| row(kind, adapter::NAME, knob) } }
          end
        end

        private

        def row(kind, name, knob)
          [kind, name, knob.name, knob.expectation, knob.default.nil? ? "-" : knob.default.inspect, knob.doc]
        end
      end
    end
  end
end
