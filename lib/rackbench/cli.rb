# frozen_string_literal: true

require "optparse"
require_relative "cli/command"
require_relative "cli/options/suite_settings"
require_relative "cli/options/gate"
require_relative "cli/options/capacity"

module Rackbench
  # `rackbench COMMAND [ARGS]`: each command is one file in lib/rackbench/cli/,
  # a Command (#initialize(argv, out, err)) whose #call returns an exit status.
  module CLI
    COMMANDS = {
      "run" => "run a suite (built-in name or YAML file; default: quick) and print its table",
      "report" => "render a stored run again (--format table|markdown|csv|json|html)",
      "compare" => "compare two stored runs cell by cell; exit 1 on a significant regression",
      "ab" => "measure two versions of your app (folders, git revisions, Gemfiles) in one run; exit 1 if B regressed",
      "calibrate" => "measure this machine's noise by A/A and what it means for the verdicts",
      "explain" => "a stored run's latency split into queue, app and GC (run --explain) and its capacity",
      "doctor" => "list what would make a benchmark of a suite or app misleading, with where and the fix",
      "tune" => "find the config that sustains the most req/s under a latency SLO and a memory budget",
      "servers" => "list server adapters: installed, version, status, knobs",
      "suites" => "list the built-in suites",
      "verify" => "request every endpoint of a bundled app once and check each answer",
      "load" => "run the native load engine directly (rackbench-load)",
      "init" => "write a starter suite (rackbench.yml) for the app in APP_DIR (default: here)"
    }.freeze

    # What `rackbench run` (and the other commands, where they apply) exit with.
    EXIT_STATUSES = {
      0 => "every cell measured",
      1 => "run --baseline, compare, ab: a significant regression (verify: a wrong answer)",
      2 => "bad input (suite file, option, name); nothing was started",
      3 => "some cell failed; its reason is in the report",
      4 => "the run could not proceed (a service the run needs failed, the results folder is not writable)",
      5 => "compare, ab, run --baseline: a baseline cell could not be compared (failed, missing, errors above 1 %): " \
           "the gate fails closed",
      6 => "compare, ab, run --baseline with --strict: a cell's outcome is inconclusive",
      "128+N" => "interrupted by signal N (130 Ctrl-C, 143 SIGTERM, 129 SIGHUP); finished cells are kept, " \
                 "the run is marked interrupted"
    }.freeze

    def self.start(argv, out: $stdout, err: $stderr)
      name = argv.first
      if name.nil? || %w[-h --help help].include?(name)
        out.puts usage
        return name.nil? ? 1 : 0
      end
      return out.puts(VERSION) || 0 if %w[-v --version].include?(name)

      unless COMMANDS.key?(name) && File.exist?(File.join(__dir__, "cli", "#{name}.rb"))
        err.puts "rackbench: unknown command #{name.inspect}\n\n#{usage}"
        return 2
      end
      require_relative "cli/#{name}"
      const_get(name.capitalize).new(argv.drop(1), out, err).call
    rescue OptionParser::ParseError => e
      err.puts "rackbench: #{e.message}"
      2
    rescue Error => e
      err.puts "rackbench: #{e.message}"
      err.puts e.log_tail.to_s.lines.map { |l| "  #{l}" }.join if e.respond_to?(:log_tail) && e.log_tail
      e.exit_status
    end

    # What each exit status means, one a line (the help's table).
    def self.exit_statuses = listing(EXIT_STATUSES)

    # Two columns, the first left-aligned (Reports::Grid, the one table writer), indented.
    def self.listing(pairs)
      Reports::Grid.new(%w[name meaning], pairs.map { |k, v| [k.to_s, v] }, left: 2)
                   .text(header: false, indent: "  ")
    end

    def self.usage
      commands = listing(COMMANDS)
      "Usage: rackbench COMMAND [options]\n\nCommands:\n#{commands}\nrackbench COMMAND --help shows a command's options." \
        "\n\nExit status:\n#{exit_statuses}"
    end
  end
end
