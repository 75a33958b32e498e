# frozen_string_literal: true

# doc/seeds.md and doc/seeds/NAME.md show each seed suite's run at the size
# that decides (`--scale`), kept in doc/runs/seeds/NAME
# (Rackbench::Docs::SeedPages): `rake docs:runs:seeds` makes the runs (slow:
# about an hour for the five on a 2-core machine; SEEDS=a,b for some, made in
# SEED_RESULTS, default tmp/seed-runs; RESUME=1 continues a seed's run that
# was stopped there, `rackbench run --resume`, instead of starting it again),
# `rake docs:seeds` writes the pages from the stored runs with the current code. test/docs/seed_pages_test.rb
# checks each page against what `rackbench report --format article` prints.
DOCS_SEEDS_RUNS = ENV.fetch("SEED_RESULTS", "tmp/seed-runs")
DOCS_SEEDS_STORE = "doc/runs/seeds"
# suite => the seed article's number (SeedPages::ORDER: the order docs:runs:seeds makes them in)
DOCS_SEEDS = { "torquebox-2011" => "000", "thin-nginx-2008" => "001", "app-servers-2015" => "002",
               "puma-vs-unicorn-2016" => "003", "lighttpd-proxy-2008" => "004" }.freeze

namespace :docs do
  namespace :runs do
    # Exit status 3 (some cells failed: a server not installed) is a result, not an error.
    tolerate = ->(_ok, status) { raise "#{status.inspect}: the run did not finish" unless [0, 3].include?(status.exitstatus) }

    desc "Run each seed suite at the size that decides (--scale; SEEDS=a,b for some) and store it in " \
         "#{DOCS_SEEDS_STORE}/NAME"
    task :seeds do
      DocsHelper.load_rackbench
      require_relative "docs/seed_pages"
      Rackbench::Docs::SeedPages.names(ENV.fetch("SEEDS", "")).each do |suite|
        raw = File.join(DOCS_SEEDS_RUNS, suite)
        if ENV["RESUME"] && DocsHelper.stopped_run?(raw, suite)
          sh("bin/rackbench", "run", "--resume", "--results", raw, &tolerate)
        else
          rm_rf raw
          sh("bin/rackbench", "run", suite, "--scale", "--results", raw, &tolerate)
        end
        DocsHelper.keep_store(raw, File.join(DOCS_SEEDS_STORE, suite))
      end
    end
  end

  desc "doc/seeds.md and doc/seeds/NAME.md from each seed suite's run stored in #{DOCS_SEEDS_STORE}/NAME"
  task :seeds do
    DocsHelper.seeds
  end
end

# The seed pages: each stored run's report, and its paragraph in doc/seeds.md.
module DocsHelper
  module_function

  def seeds
    load_rackbench
    require_relative "docs/seed_pages"
    paragraphs = DOCS_SEEDS.map do |suite, number|
      dir = File.join(DOCS_SEEDS_STORE, suite)
      next Rackbench::Docs::SeedPages.unstored(suite, number) unless File.exist?(File.join(dir, "rackbench.sqlite3"))

      seed_page(suite, number, dir)
    end
    replace_block("doc/seeds.md", "seeds", paragraphs.join("\n"))
  end

  # Whether the latest run in dir is suite's, stopped before it finished
  # (interrupted, failed, or its rackbench gone): what `run --resume` continues.
  def stopped_run?(dir, suite)
    return false unless File.exist?(File.join(dir, "rackbench.sqlite3"))

    load_rackbench
    store = Rackbench::Store.new(dir)
    run = store.runs.first
    run && run["suite"] == suite && Rackbench::Resume::RESUMABLE.include?(run["status"])
  ensure
    store&.close
  end

  # Writes doc/seeds/SUITE.md from the stored run; returns its paragraph.
  def seed_page(suite, number, dir)
    store, run = latest(dir, suite)
    page = "doc/seeds/#{suite}.md"
    sh "bin/rackbench", "report", run["id"].to_s, "--results", dir, "--format", "article", "--output", page
    measurements = store.measurements(run["id"])
    Rackbench::Docs::SeedPages.paragraph(suite, number, run, measurements, chart: chart(run, measurements, suite), dir: dir)
  ensure
    store&.close
  end
end
