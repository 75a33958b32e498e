# frozen_string_literal: true

module Rackbench
  module CLI
    # rackbench report [RUN_ID] [--format F] [--results DIR] [--output FILE] [--list]
    # A format with a file_name (html) is written into the run's folder, and its path printed.
    class Report
      def initialize(argv, out, err)
        @argv = argv
        @out = out
        @err = err
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

      def list(store)
        store.runs.each do |r|
          @out.puts format("%5d  %-24s %-11s %s", r["id"], r["suite"], r["status"], r["started_at"])
        end
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
