# frozen_string_literal: true

# The README's quick-start time, from bench/fresh (a fresh clone's bin/setup and
# first run, timed): `rake docs:runs:fresh` runs it and keeps what it printed
# (Rackbench::Docs::Transcript); `rake docs:fresh` writes the README's sentence from that.
DOCS_FRESH = ENV.fetch("FRESH_RESULTS", "tmp/docs-runs/fresh")

namespace :docs do
  namespace :runs do
    desc "bench/fresh (a fresh clone's bin/setup and bin/rackbench run, timed), its output kept in #{DOCS_FRESH}"
    task :fresh do
      rm_rf DOCS_FRESH
      DocsTranscripts.record(DOCS_FRESH, ["bench/fresh"], shown: "bench/fresh", chdir: DOCS_ROOT)
    end
  end

  desc "The README's quick-start time: what `rake docs:runs:fresh` kept in #{DOCS_FRESH}"
  task :fresh do
    DocsHelper.load_rackbench
    require_relative "docs/transcript"
    out = Rackbench::Docs::Transcript.load(DOCS_FRESH).output
    figure = lambda do |label|
      out[/^  #{Regexp.escape(label)}\s+(\d+) s/, 1] or raise "#{DOCS_FRESH}: bench/fresh printed no #{label} line"
    end
    minutes = out[/^  to the first table\s+\d+ s \(([\d.]+) min/, 1]
    cpus = out[/, (\d+) CPUs,/, 1]
    load = out[/load average ([\d.]+) at the end/, 1]
    DocsHelper.replace_block("README.md", "fresh", <<~MD)
      From a fresh clone to that table took #{minutes} minutes (#{figure["bin/setup"]} s of `bin/setup`,
      #{figure["bin/rackbench run"]} s of `bin/rackbench run`) on a #{cpus}-core machine busy with other work (load
      average #{load} as it ended) with the Debian packages already installed (`bench/fresh` times both
      commands in a fresh clone; `rake docs:runs:fresh docs:fresh` measures again and writes this sentence).
    MD
  end
end
