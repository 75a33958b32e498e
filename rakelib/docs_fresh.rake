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
    (setup_s, setup_cpu_s), (run_s, run_cpu_s) = ["bin/setup", "bin/rackbench run"].map do |label|
      out.match(/^  #{Regexp.escape(label)}\s+(\d+) s \((\d+) s of CPU\)$/)&.captures or raise "#{DOCS_FRESH}: no #{label} line"
    end
    packages = figure(out, %r{^  Debian packages bin/setup installed: (.*)$}, "packages").split.map { |p| "`#{p}`" }.join(", ")
    gems, compiled = out.match(%r{^  gems bin/setup installed: (\d+), (\d+) of them compiled$})&.captures
    extras, extras_s = out.match(%r{^  then bin/setup (.+): (\d+) s \(\d+ s of CPU\)$})&.captures
    raise "#{DOCS_FRESH}: bench/fresh printed no gems or extras line (run it with --extras)" unless gems && extras

    <<~MD
      On a Debian bookworm machine with nothing installed but Ruby, Node and git, that table came
      #{figure(out, /^  to the first table\s+\d+ s \(([\d.]+) min/, "total")} minutes after a fresh clone: #{setup_s} s of `bin/setup` (#{setup_cpu_s} s of CPU: it installed
      #{packages}, #{gems} gems, #{compiled} of them compiled, the chart library and the load engine) and
      #{run_s} s of `bin/rackbench run` (#{run_cpu_s} s of CPU), on a #{figure(out, /(\d+) CPUs,/, "CPUs")}-core machine whose load average
      was #{figure(out, /load average ([\d.]+) at/, "load")} as it started and #{figure(out, /, ([\d.]+) after the run/, "load")} after the run
      (other work shares its CPUs: the CPU seconds are what the commands need). The extras other suites use (the other MRI servers, the Rails app,
      the proxies, memcached, wrk and ab: `bin/setup #{extras}`) took #{extras_s} s more.
      `#{DOCS_FRESH_COMMAND.join(" ")}` times these in a Debian root made with debootstrap; `rake docs:runs:fresh
      docs:fresh` measures again and writes this paragraph.
    MD
  end

  def figure(out, pattern, what)
    out[pattern, 1] or raise "#{DOCS_FRESH}: bench/fresh printed no #{what} figure"
  end
end
