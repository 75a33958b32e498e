# frozen_string_literal: true

# The README's quick-start time, from bench/fresh: `rake docs:runs:fresh` runs it on a machine with
# nothing installed (--machine: a Debian root made with debootstrap) and times the extras after the
# first table (--extras), keeping what it printed (Rackbench::Docs::Transcript); `rake docs:fresh`
# writes the README's paragraph from that.
DOCS_FRESH = ENV.fetch("FRESH_RESULTS", "tmp/docs-runs/fresh")
DOCS_FRESH_COMMAND = %w[bench/fresh --machine --extras].freeze

namespace :docs do
  namespace :runs do
    desc "#{DOCS_FRESH_COMMAND.join(" ")} (bin/setup and bin/rackbench run on a machine with nothing installed, " \
         "timed, then the extras), its output kept in #{DOCS_FRESH}"
    task :fresh do
      rm_rf DOCS_FRESH
      DocsTranscripts.record(DOCS_FRESH, DOCS_FRESH_COMMAND, shown: DOCS_FRESH_COMMAND.join(" "), chdir: DOCS_ROOT)
    end
  end

  desc "The README's quick-start time: what `rake docs:runs:fresh` kept in #{DOCS_FRESH}"
  task :fresh do
    DocsHelper.load_rackbench
    require_relative "docs/transcript"
    DocsHelper.replace_block("README.md", "fresh", DocsFresh.paragraph(Rackbench::Docs::Transcript.load(DOCS_FRESH).output))
  end
end

# The README's paragraph from what bench/fresh printed.
module DocsFresh
  module_function

  def paragraph(out)
    (setup_s, setup_cpu_s), (run_s, _run_cpu_s) = ["bin/setup", "bin/rackbench run"].map do |label|
      out.match(/^  #{Regexp.escape(label)}\s+(\d+) s \((\d+) s of CPU\)$/)&.captures or raise "#{DOCS_FRESH}: no #{label} line"
    end
    gems, compiled = out.match(%r{^  gems bin/setup installed: (\d+), (\d+) of them compiled$})&.captures
    extras_s = out[%r{^  then bin/setup .+: (\d+) s \(\d+ s of CPU\)$}, 1]
    raise "#{DOCS_FRESH}: bench/fresh printed no gems or extras line (run it with --extras)" unless gems && extras_s

    # Short: the README is at its size limit (test/docs/readme_sample_test.rb).
    <<~MD
      On a Debian machine with nothing but Ruby, Node and git installed (#{figure(out, /(\d+) CPUs,/, "CPUs")} cores, load average
      #{figure(out, /, ([\d.]+) after the run/, "load")}), that table came #{figure(out, /^  to the first table\s+\d+ s \(([\d.]+) min/, "total")} minutes after a fresh clone: #{setup_s} s of `bin/setup` (#{setup_cpu_s} s of
      CPU; #{gems} gems, #{compiled} compiled), #{run_s} s of `bin/rackbench run`; the extras MRI suites use
      took #{extras_s} s more (`rake docs:runs:fresh docs:fresh` measures again).
    MD
  end

  def figure(out, pattern, what)
    out[pattern, 1] or raise "#{DOCS_FRESH}: bench/fresh printed no #{what} figure"
  end
end
