# frozen_string_literal: true

require_relative "progress"

module Rackbench
  module CLI
    # rackbench run [SUITE] [--results DIR] [--engine NAME] [--smoke] [--format F]
    class Run
      def initialize(argv, out, err)
        @argv = argv
        @out = out
        @err = err
        @overrides = {}
        @results = Store::DEFAULT_DIR
        @format = "table"
      end

      def call
        parser.parse!(@argv)
        suite = Suite.load(@argv.first || "quick", overrides: @overrides)
        supervisor = Supervisor.new
        supervisor.trap_signals
        store = Store.new(@results)
        run_id = Runner.new(suite, store: store, supervisor: supervisor, listener: Progress.new(@out)).run
        @out.puts Reports.fetch(@format).new(store.run(run_id), store.cells(run_id)).render
        store.cells(run_id).all? { |c| c["status"] == "ok" } ? 0 : 3
      rescue SignalException => e
        supervisor&.stop_all
        @err.puts "rackbench: interrupted by SIG#{Signal.signame(e.signo)}; finished cells are kept in #{store&.path}"
        128 + e.signo
      ensure
        supervisor&.stop_all
      end

      private

      def parser
        OptionParser.new do |o|
          o.banner = "Usage: rackbench run [SUITE|FILE.yml] [options]\n" \
                     "Runs a suite (default: quick), stores it, prints its table. Exit 3 if any cell failed."
          o.on("--results DIR", "results folder (default: #{Store::DEFAULT_DIR})") { |d| @results = d }
          o.on("--engine NAME", "load engine (#{Engines.names.join(", ")})") { |e| @overrides["engine"] = e }
          o.on("--smoke", "the suite's smoke settings: very short durations, for tests and CI") { @overrides["smoke"] = true }
          o.on("--duration SECONDS", Float, "measured seconds per cell") { |d| @overrides["duration_s"] = d }
          o.on("--warmup SECONDS", Float, "warm-up seconds per cell") { |d| @overrides["warmup_s"] = d }
          o.on("--concurrency LIST", Array, "concurrency levels, e.g. 1,10,100") do |l|
            @overrides["concurrency"] = l.map { |c| Integer(c) }
          end
          o.on("--[no-]pin", "pin server and load generator to disjoint CPUs (default on)") { |p| @overrides["pin"] = p }
          o.on("--format FORMAT", "table (default), markdown, csv, json") { |f| @format = Reports.fetch(f) && f }
        end
      end
    end
  end
end
