# frozen_string_literal: true

require_relative "progress"
require_relative "doctor"
require_relative "../article/summary"
require_relative "../article/preflight"
require_relative "../reports/parts/claim_text"

module Rackbench
  module CLI
    # rackbench run [SUITE] [--results DIR] [--engine NAME] [--smoke] [--scale] [--format F]
    # A seed suite (one with an article: block) prints the article report and
    # writes its charts into the run's folder.
    class Run < Command
      def initialize(argv, out, err)
        super
        @overrides = {}
        @results = Store::Location.default
        @format = nil
        @gate = Gate.new
        @doctor = true
      end

      def call
        @original_argv = ["run", *@argv]
        parser.parse!(@argv)
        @overrides["capacity"] = @capacity unless @capacity.nil? || @capacity.empty?
        suite = Suite.load(@argv.first || "quick", overrides: @overrides) unless @resume
        ResultsFolder.check!(Store::Location.new(@results).dir) # with PostgreSQL, the local folder of raw output
        suite = resumed_suite if @resume
        scaled = Article::Summary.new({ "settings" => suite.data }, []).scaled_text
        @out.puts "rackbench: #{scaled}" if scaled
        report_unsettled(suite) unless @resume
        report_orphans
        report_missing(suite)
        measure(suite, findings: @doctor && !@resume ? doctor(suite) : nil)
      end

      # Runs the suite and reports it; the exit status (see CLI::EXIT_STATUSES).
      # findings: doctor's, stored with the run (machine["doctor"]).
      def measure(suite, findings: nil)
        supervisor = Supervisor.new
        supervisor.trap_signals
        store = Store.new(@results)
        hide = store.redaction(Suite::Secrets.of(suite)) # what it prints keeps the suite's secrets out, as the store does
        @out, @err = [@out, @err].map { |io| Store::RedactedOutput.new(io, hide) }
        store.run(@baseline) if @baseline # a bad baseline is bad input: say so before anything starts
        resume = @resume && Resume.new(store, @resume.id)
        auto = Tune::AutoRates.new(suite, store: store, supervisor: supervisor, out: @out) if Tune::AutoRates.wanted?(suite)
        suite = auto.resolve if auto
        runner = Runner.new(suite, store: store, supervisor: supervisor, listener: Progress.new(@out), resume: resume,
                                   doctor: findings, questions: Article::ClaimLooks.for(suite))
        @out.puts "rackbench: planned #{runner.estimate}#{budget_text(suite)}"
        run_id = runner.run
        store.merge_settings(run_id, "auto_rates" => auto.to_h) if auto
        report(suite, store, run_id)
      rescue SignalException => e
        supervisor&.stop_all
        supervisor&.ignore_signals
        @err.puts "rackbench: interrupted by SIG#{Signal.signame(e.signo)}; finished cells are kept in #{store&.path}"
        128 + e.signo
      rescue Error => e
        raise hide ? e.exception(hide.text(e.message)) : e
      ensure
        supervisor&.stop_all
      end

      # Reads the run back once and renders it; the exit status: 3 when a cell
      # failed, else the gate's against --baseline (Gate#status), else 0.
      def report(suite, store, run_id)
        run = store.run(run_id)
        measurements = store.measurements(run_id)
        format = @format || (suite["article"].empty? ? "table" : "article")
        @out.puts Reports.fetch(format).new(run, measurements).render
        write_charts(run, measurements) unless suite["article"].empty?
        gate = @baseline ? baseline_status(store, run, measurements) : 0
        return 3 unless measurements.all?(&:ok?)

        gate
      end

      private

      # --resume: the failed or interrupted run's own suite and settings (nothing else may be given).
      def resumed_suite
        unless @argv.empty? && @overrides.empty?
          raise ConfigError, "--resume continues a run with its stored suite and settings: give no suite or setting"
        end

        store = Store.new(@results)
        @resume = Resume.new(store, @resume_id)
        @resume.suite
      ensure
        store&.close
      end

      # What would make this run misleading (Doctor), said before it starts; the findings as data.
      def doctor(suite)
        machine = Rackbench::Doctor::Machine.capture(results_dir: Store::Location.new(@results).dir)
        findings = Rackbench::Doctor.examine(Rackbench::Doctor::Subject.from_suite(suite), machine)
        @err.puts "#{Doctor.text(findings, "rackbench doctor")}\n  (rackbench run --no-doctor skips this)" unless findings.empty?
        findings.map(&:to_h)
      end

      # A seed suite's claims this machine cannot settle (Article::Preflight),
      # said before any server starts: too few CPUs, a server not installed.
      def report_unsettled(suite)
        Article::Preflight.new(suite).answers.each do |answer|
          @out.puts "rackbench: cannot settle here: #{Reports::ClaimText.new(answer).sentence}"
        end
      end

      # Processes an earlier rackbench left running take CPU from this run:
      # said before it starts, and ended with --clean.
      def report_orphans
        FairShare.remove_leftovers if @clean
        orphans = Orphans.new.find
        return if orphans.empty?

        if @clean
          Orphans.new.end_all(orphans)
          @err.puts "rackbench: ended #{Orphans.describe(orphans).sub(" still running:", ":")}"
        else
          @err.puts "rackbench: #{Orphans.describe(orphans)}; they take CPU from this run " \
                    "(rackbench run --clean ends them)"
        end
      end

      # Before anything starts: what the suite needs that cannot run here
      # (Preflight), and the one command that installs it; with --install,
      # that command runs and rackbench starts again (a new process sees the
      # new gems). Otherwise the cells that need it fail, the others are measured.
      def report_missing(suite)
        preflight = Preflight.new(suite)
        preflight.missing.each { |line| @err.puts "rackbench: cannot run here, its cells will fail: #{line}" }
        return unless preflight.command

        install(preflight) if @install
        @err.puts "rackbench: `#{preflight.command}` installs what is missing (or: rackbench run --install)"
      end

      # Runs the preflight's bin/setup, then this command again without --install.
      def install(preflight)
        @err.puts "rackbench: installing: #{preflight.command}"
        installed = Extras.install(preflight.extras, out: @err)
        raise ServiceError, "`#{preflight.command}` failed (its output is above)" unless installed

        @err.flush
        Watchdog.current.close # the next rackbench's children carry this pid's marker too
        Kernel.exec(RbConfig.ruby, File.join(ROOT, "bin", "rackbench"), *@original_argv.reject { |a| a == "--install" })
      end

      def budget_text(suite)
        budget = suite["budget_s"] or return ""
        "; budget #{format("%g", budget / 60.0)} min: starts go to the comparisons still open until it is spent"
      end

      # Prints the comparison with the baseline run; its gate's exit status.
      def baseline_status(store, run, measurements)
        baseline = store.run(@baseline)
        regression = @gate.regression(store.measurements(baseline["id"]), measurements)
        @out.puts Reports::RegressionReport.new(regression, baseline, run).table
        @gate.status(regression)
      end

      def write_charts(run, measurements)
        paths = Reports.fetch("svg").new(run, measurements).render
        @out.puts "rackbench: charts in #{File.dirname(paths.lines.first)}/ (#{paths.lines.size} SVG files)" unless paths.empty?
      rescue ServiceError => e
        @err.puts "rackbench: no charts: #{e.message}\n#{e.log_tail}"
      end

      # Options about the run itself rather than the suite's settings.
      def run_options(opts)
        opts.on("--results DIR|URL", Store::Location::HELP) { |d| @results = d }
        opts.on("--clean", "first end processes left running by a rackbench that is gone") { @clean = true }
        opts.on("--resume [RUN]", "continue a failed or interrupted run (default: the latest) with its stored settings and " \
                                  "order; finished cells are kept") do |id|
          @resume = true
          @resume_id = id
        end
        opts.on("--format FORMAT", "#{Reports.names.join(", ")} (default: table, or article for a seed suite)") do |f|
          @format = Reports.fetch(f) && f
        end
      end

      # What to compare the run with afterwards: a stored run, through the gate compare uses.
      def baseline_options(opts)
        opts.on("--baseline RUN", "compare with a stored run afterwards and exit as compare does (1: a significant " \
                                  "regression)") { |r| @baseline = r }
        @gate.define(opts)
      end

      def parser
        OptionParser.new do |o|
          o.banner = "Usage: rackbench run [SUITE|FILE.yml] [options]\n" \
                     "Runs a suite (default: quick), stores it, prints its table.\n\nExit status:\n#{CLI.exit_statuses}\n"
          run_options(o)
          o.on("--engine NAME", "load engine (#{Engines.names.join(", ")})") { |e| @overrides["engine"] = e }
          o.on("--scale", "the suite's scale settings: durations and concurrencies shrunk for a small machine") do
            @overrides["scale"] = true
          end
          SuiteSettings.load(o, @overrides)
          SuiteSettings.statistics(o, @overrides)
          baseline_options(o)
          o.on("--order ORDER", Schedule::ORDERS, "interleaved (default), random or sequential") { |v| @overrides["order"] = v }
          o.on("--seed N", Integer, "the order's random seed (default: drawn, and recorded)") { |n| @overrides["seed"] = n }
          CapacityOptions.define(o, @capacity = {})
          o.on("--explain", "split latency into queue, app and GC (the probe middleware; engine native)") do
            @overrides["explain"] = true
          end
          o.on("--no-doctor", "do not examine the suite, app and machine first (rackbench doctor)") { @doctor = false }
          o.on("--install", "first install what the suite needs and this machine lacks (bin/setup NAME), then run") do
            @install = true
          end
        end
      end
    end
  end
end
