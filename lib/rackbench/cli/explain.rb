# frozen_string_literal: true

module Rackbench
  module CLI
    # rackbench explain [RUN] [--results DIR] [--format table|markdown] [--memory SIZE --price HOURLY --cpus N]
    # Why a stored run's cells are as slow as they are and what they cost:
    # its "Why" section (latency split into queue, app and GC, from a run
    # with explain: true or `rackbench run --explain`) and its "Capacity"
    # section. Exit 1 when the run has neither.
    class Explain < Command
      SECTIONS = %w[explain capacity].freeze

      def initialize(argv, out, err)
        super
        @results = Store::Location.default
        @format = "table"
        @capacity = {}
      end

      def call
        parser.parse!(@argv)
        store = Store.new(@results)
        run = store.run(@argv.first)
        run["settings"] = (run["settings"] || {}).merge("capacity" => run.dig("settings", "capacity").to_h.merge(@capacity))
        report = Reports.fetch(@format).new(run, store.measurements(run["id"]))
        report.document.sections.select! { |s| SECTIONS.include?(s.id) }
        return found_nothing(run) if report.document.sections.empty?

        @out.puts report.render
        0
      ensure
        store&.close
      end

      private

      def found_nothing(run)
        @err.puts "rackbench explain: run #{run["id"]} has no probe records and no memory snapshots: " \
                  "run it with explain: true (rackbench run SUITE --explain)"
        1
      end

      def parser
        OptionParser.new do |o|
          o.banner = "Usage: rackbench explain [RUN_ID] [options]   (default: the latest run)"
          o.on("--results DIR|URL", Store::Location::HELP) { |d| @results = d }
          o.on("--format FORMAT", %w[table markdown], "table (default) or markdown") { |f| @format = f }
          CapacityOptions.define(o, @capacity)
        end
      end
    end
  end
end
