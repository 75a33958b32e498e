# frozen_string_literal: true

module Rackbench
  module CLI
    # rackbench report [RUN_ID] [--format F] [--results DIR] [--output FILE] [--list]
    # A format with a file_name (html) is written into the run's folder, and its path printed.
    class Report < Command
      def initialize(argv, out, err)
        super
        @format = "table"
        @results = Store::Location.default
        @capacity = {}
      end

      def call
        parser.parse!(@argv)
        store = Store.new(@results)
        return list(store) if @list

        run = store.run(@argv.first)
        run["settings"] = (run["settings"] || {}).merge("capacity" => run.dig("settings", "capacity").to_h.merge(@capacity)) \
          unless @capacity.empty?
        klass = Reports.fetch(@format)
        text = klass.new(run, store.measurements(run["id"])).render
        path = @output || (klass.respond_to?(:file_name) && File.join(run["dir"], klass.file_name))
        return @out.puts(text) || 0 unless path

        File.write(path, text)
        @out.puts path
        0
      end

      private

      # One line a stored run: id, suite, status and when it started (a Grid, the one table writer).
      def list(store)
        rows = store.runs.map { |r| r.values_at("id", "suite", "status", "started_at") }
        @out.print Reports::Grid.new(%w[id suite status started], rows, align: %i[right left left left])
                                .text(header: false, indent: "  ")
        0
      end

      def parser
        OptionParser.new do |o|
          o.banner = "Usage: rackbench report [RUN_ID] [options]   (default: the latest run)"
          o.on("--format FORMAT", "#{Reports.names.join(", ")} (default table)") { |f| @format = Reports.fetch(f) && f }
          o.on("--results DIR|URL", Store::Location::HELP) { |d| @results = d }
          o.on("--output FILE", "write the report to FILE instead of printing it") { |f| @output = f }
          o.on("--list", "list stored runs") { @list = true }
          CapacityOptions.define(o, @capacity)
        end
      end
    end
  end
end
