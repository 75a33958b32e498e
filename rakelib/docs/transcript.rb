# frozen_string_literal: true

require "fileutils"
require "json"
require "open3"

module Rackbench
  module Docs
    # A command's terminal output kept for a doc page: `rake docs:runs:NAME`
    # runs the command once (slow: it measures) and keeps what it printed, its
    # exit status, the folder it ran in and the machine's load average in
    # DIR/transcript.json; `rake docs:NAME` writes the page's block from that
    # file, so the page shows what the command printed, with the paths of the
    # folder it ran in made relative (the folder itself becomes `.`: no path
    # of this machine in a doc), and
    # says how busy the machine was.
    #
    #   Transcript.record("tmp/docs-runs/ab", %w[bin/rackbench ab old new], shown: "rackbench ab old new", chdir: dir)
    #   Transcript.load("tmp/docs-runs/ab").markdown   # "$ rackbench ab ...\n<output>\n$ echo $?\n1"
    class Transcript
      FILE = "transcript.json"

      attr_reader :shown, :output, :exit_status, :loadavg

      def self.record(dir, argv, shown:, chdir: dir, tolerated: [0])
        FileUtils.mkdir_p(dir)
        output, status = unbundled { Open3.capture2e(*argv, chdir: chdir) } # as from a user's shell
        raise "#{argv.join(" ")} exited #{status.exitstatus}:\n#{output}" unless tolerated.include?(status.exitstatus)

        data = { "shown" => shown, "output" => output, "exit_status" => status.exitstatus, "cwd" => File.expand_path(chdir),
                 "loadavg" => File.read("/proc/loadavg").split.first(3).map(&:to_f) }
        File.write(File.join(dir, FILE), JSON.pretty_generate(data))
        new(data)
      end

      def self.unbundled(&) = defined?(Bundler) ? Bundler.with_unbundled_env(&) : yield

      def self.load(dir)
        path = File.join(dir, FILE)
        raise "no #{path}: `bundle exec rake docs:runs` makes it" unless File.exist?(path)

        new(JSON.parse(File.read(path)))
      end

      def initialize(data)
        @shown = data.fetch("shown")
        cwd = data.fetch("cwd")
        @output = data.fetch("output").gsub("#{cwd}/", "").gsub(/#{Regexp.escape(cwd)}(?=[\s;:,)]|\z)/, ".")
        @exit_status = data.fetch("exit_status")
        @loadavg = data.fetch("loadavg")
      end

      # The load averages over 1, 5 and 15 minutes when the command ended, as text.
      def loadavg_text = loadavg.map { |l| format("%.1f", l) }.join(", ")

      # The command, what it printed and (with status: true) its exit status, as a shell session.
      def markdown(status: false)
        lines = ["$ #{shown}", output.rstrip]
        lines += ["$ echo $?", exit_status.to_s] if status
        "```text\n#{lines.join("\n")}\n```"
      end
    end
  end
end
