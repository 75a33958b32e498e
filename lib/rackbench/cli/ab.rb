# frozen_string_literal: true

require "psych"
require_relative "progress"
require_relative "compare"

module Rackbench
  module CLI
    # rackbench ab A B [--suite FILE | --server NAME --endpoint PATH] [options]
    # Two versions of the user's app measured in one run: each of the suite's
    # server entries twice (Versions), so the Runner starts A and B side by
    # side at every start and measures them in interleaved rounds; then B is
    # compared with A as `compare` compares two runs, but paired by start, so
    # drift of the machine between starts cancels. The gate a project puts in
    # its CI when it upgrades Rails, Ruby or its server.
    class Ab < Command
      USAGE = <<~TEXT
        Usage: rackbench ab A B [options]
        Measures two versions of your app in one run, started side by side and measured in turns, and
        says whether B (the candidate) is slower than A (the baseline), cell by cell.
        A and B are two folders (each with a config.ru), two git revisions of the repository that holds
        the app (each checked out into the results folder with git worktree, removed afterwards), or two
        Gemfiles of the app (Gemfile and Gemfile.next, each with its own lock beside it).
        The suite is --suite FILE, else rackbench.yml in the app's folder, else --server and --endpoint.

        Exit status: 0 no regression; 1 B regressed; 2 bad input, nothing started; 5 a cell could not be
        compared (it failed or has too many errors); 6 with --strict, a cell is inconclusive.
      TEXT

      def initialize(argv, out, err)
        super
        @overrides = {}
        @results = Store::Location.default
        @gate = Gate.new
        @endpoints = []
        @server = "puma"
      end

      def call
        parser.parse!(@argv)
        raise ConfigError, "ab needs two versions: A B (see rackbench ab --help)" unless @argv.size == 2

        base, suite_path = base_suite
        if (@overrides["order"] || base["order"]) == "sequential"
          raise ConfigError, "#{suite_path}: order: sequential measures A's cells apart from B's; ab pairs them by " \
                             "server start, so it needs interleaved (the default) or random"
        end
        versions = Versions.parse(*@argv, app: app_of(base, suite_path))
        dir = ResultsFolder.check!(Store::Location.new(@results).dir)
        versions.prepare(File.join(dir, "ab", "#{Time.now.strftime("%Y%m%d-%H%M%S")}-#{Process.pid}"))
        suite = Suite.new(versions.suite_data(base).to_yaml, path: suite_path, overrides: @overrides)
        measure(suite, versions)
      ensure
        versions&.cleanup
      end

      private

      # The run, then B against A; the exit status.
      def measure(suite, versions)
        supervisor = Supervisor.new
        supervisor.trap_signals
        store = Store.new(@results)
        run_id = Runner.new(suite, store: store, supervisor: supervisor, listener: progress).run
        baseline, current = versions.split(store.measurements(run_id))
        regression = @gate.regression(baseline, current, paired: true, key: versions.key)
        run = store.run(run_id)
        a = run.merge("suite" => "A = #{versions.a.describe}")
        b = run.merge("suite" => "B = #{versions.b.describe}")
        status = @gate.status(regression)
        @out.puts @gate.report(regression, a, b, command: "ab")
        status
      rescue SignalException => e
        supervisor&.stop_all
        supervisor&.ignore_signals
        @err.puts "rackbench: interrupted by SIG#{Signal.signame(e.signo)}"
        128 + e.signo
      ensure
        supervisor&.stop_all
        store&.close
      end

      # The suite's data as its file has it (validated first, so an error
      # names its line), or one made of --server and --endpoint; and its path.
      def base_suite
        if @suite_path && @without_suite
          raise ConfigError, "--suite names the endpoints and servers; --server and --endpoint are for a run without one"
        end

        path = @suite_path || (!@without_suite && [@argv.first, @app].compact.map { |p| own_suite_beside(p) }.compact.first)
        if path
          Suite.load(path, overrides: @overrides)
          [Psych.parse(File.read(path), filename: path).to_ruby, path]
        else
          data = { "endpoints" => @endpoints.empty? ? ["/"] : @endpoints,
                   "servers" => [{ "server" => @server }] }
          [data, File.join(Dir.pwd, "(rackbench ab)")]
        end
      end

      # rackbench.yml in a version's folder or the app's, when there is one.
      def own_suite_beside(path)
        folder = File.directory?(path) ? path : File.dirname(path)
        candidate = File.join(folder, "rackbench.yml")
        File.file?(candidate) ? candidate : nil
      end

      # The app served for revisions and Gemfiles: --app, else the suite's own
      # app (a config.ru, not a bundled app), else ./config.ru (Versions).
      def app_of(base, suite_path)
        named = base["app"] unless base["app"].nil? || Apps.bundled?(base["app"])
        app = @app || (named && File.expand_path(named, File.dirname(suite_path)))
        app && File.directory?(app) ? File.join(app, "config.ru") : app
      end

      # The run's progress; on stderr when stdout carries a document (json, markdown).
      def progress = Progress.new(@gate.format == "table" ? @out : @err)

      def parser
        OptionParser.new do |o|
          o.banner = USAGE
          o.on("--suite FILE", "the suite whose endpoints and servers measure both versions") { |f| @suite_path = f }
          o.on("--app PATH", "the app's config.ru (or folder), for revisions and Gemfiles (default: ./config.ru)") do |a|
            @app = a
          end
          o.on("--server NAME", "without a suite: the server both run on (default puma)") do |s|
            @server = s
            @without_suite = true
          end
          o.on("--endpoint PATH", "without a suite: a path to measure (repeatable; default /)") do |e|
            @endpoints << e
            @without_suite = true
          end
          o.on("--results DIR|URL", Store::Location::HELP) { |d| @results = d }
          SuiteSettings.load(o, @overrides)
          SuiteSettings.statistics(o, @overrides)
          @gate.define(o, subject: "B")
          @gate.define_format(o)
        end
      end
    end
  end
end
