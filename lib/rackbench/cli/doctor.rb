# frozen_string_literal: true

require "json"

module Rackbench
  module CLI
    # rackbench doctor [SUITE | APP_DIR] [--results DIR] [--smoke] [--scale] [--json]
    # Lists what would make a benchmark of the suite (or of the app in
    # APP_DIR, default: here) misleading, each with where it was found and
    # the fix. Exit 0 when there is no warning (notes may remain), 1 when
    # there is one, 2 on bad input.
    class Doctor < Command
      def initialize(argv, out, err)
        super
        @results = Store::Location.default
        @overrides = {}
      end

      def call
        parser.parse!(@argv)
        raise ConfigError, "doctor takes one SUITE or APP_DIR, got #{@argv.join(" ")}" if @argv.size > 1

        subject = subject_for(@argv.first)
        findings = Rackbench::Doctor.examine(subject, machine)
        @out.puts(@json ? JSON.pretty_generate(findings.map(&:to_h)) : self.class.text(findings, heading(subject)))
        findings.any?(&:warning?) ? 1 : 0
      end

      # The findings as `run` and `doctor` print them: one block each, then a count.
      def self.text(findings, heading)
        return "#{heading}: nothing found that would mislead" if findings.empty?

        lines = findings.map { |f| "  #{f.severity}: #{f.message}\n    where: #{f.where}\n    fix: #{f.fix}" }
        warnings = findings.count(&:warning?)
        "#{heading}:\n#{lines.join("\n")}\n  #{warnings} warning(s), #{findings.size - warnings} note(s)"
      end

      private

      def subject_for(arg)
        return Rackbench::Doctor::Subject.for(arg) if @overrides.empty?
        if arg && File.directory?(arg) && !File.file?(File.join(arg, "rackbench.yml"))
          raise ConfigError, "--smoke and --scale apply to a suite"
        end

        suite = arg && File.directory?(arg) ? File.join(arg, "rackbench.yml") : arg
        Rackbench::Doctor::Subject.from_suite(Suite.load(suite || "rackbench.yml", overrides: @overrides))
      end

      def machine = Rackbench::Doctor::Machine.capture(results_dir: Store::Location.new(@results).dir)

      def heading(subject)
        what = subject.suite? ? "suite #{subject.suite.name}" : "the app in #{subject.display(subject.files.dir)}"
        "rackbench doctor: #{what}, on this machine"
      end

      def parser
        OptionParser.new do |o|
          o.banner = "Usage: rackbench doctor [SUITE|FILE.yml|APP_DIR] [options]\n" \
                     "Lists what would make the benchmark misleading (app files, suite, this machine), each with where " \
                     "and the fix.\nExit status: 0 no warning, 1 a warning, 2 bad input.\n"
          o.on("--results DIR|URL", "the results folder whose disk is checked (default #{Store::DEFAULT_DIR})") { |d| @results = d }
          o.on("--smoke", "examine the suite's smoke settings") { @overrides["smoke"] = true }
          o.on("--scale", "examine the suite's scale settings") { @overrides["scale"] = true }
          o.on("--json", "the findings as JSON") { @json = true }
        end
      end
    end
  end
end
