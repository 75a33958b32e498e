# frozen_string_literal: true

# The README's figures and the seed pages, regenerated from stored runs:
#
#   bundle exec rake docs:runs   # make the runs (slow): the quick suite, then each seed suite with --smoke
#   bundle exec rake docs        # README's support matrix, sample and seed paragraphs; doc/seeds/*.md; doc/images/*.svg
#
# Runs are read from tmp/readme-quick (the quick suite) and tmp/seed-results
# (the latest run of each seed suite); QUICK_RESULTS and SEED_RESULTS name
# other folders. Every figure in the README comes from one of these runs,
# through the commands this file prints as it goes.
DOCS_ROOT = File.expand_path("..", __dir__)
DOCS_QUICK = ENV.fetch("QUICK_RESULTS", "tmp/readme-quick")
DOCS_SEEDS_DIR = ENV.fetch("SEED_RESULTS", "tmp/seed-results")
# suite => the seed article's number
DOCS_SEEDS = { "torquebox-2011" => "000", "thin-nginx-2008" => "001", "app-servers-2015" => "002",
               "puma-vs-unicorn-2016" => "003", "lighttpd-proxy-2008" => "004" }.freeze

desc "Regenerate the README's support matrix, sample and seed paragraphs, doc/seeds/*.md and doc/images/*.svg"
task docs: %w[docs:servers docs:sample docs:seeds]

namespace :docs do
  desc "Make the runs the docs are drawn from (slow): the quick suite, then each seed suite with --smoke"
  task :runs do
    # Exit status 3 (some cells failed: TorqueBox cannot run on Java 17) is a result, not an error.
    tolerate = ->(_ok, status) { raise "#{status.inspect}: the run did not finish" unless [0, 3].include?(status.exitstatus) }
    sh("bin/rackbench", "run", "quick", "--results", DOCS_QUICK, &tolerate)
    DOCS_SEEDS.each_key { |suite| sh("bin/rackbench", "run", suite, "--smoke", "--results", DOCS_SEEDS_DIR, &tolerate) }
  end

  desc "The README's support matrix (bin/rackbench servers --probe --format markdown)"
  task :servers do
    table = `bin/rackbench servers --probe --format markdown`
    raise "bin/rackbench servers failed" unless $?.success? # rubocop:disable Style/SpecialGlobalVars

    DocsHelper.load_rackbench
    require "rackbench/reports/parts/failures"
    DocsHelper.replace_block("servers", table.lines.map { |l| Rackbench::Reports::Failures.normalize(l) }.join("\n"))
  end

  desc "The README's sample output and chart (the latest run in #{DOCS_QUICK})"
  task :sample do
    DocsHelper.sample
  end

  desc "doc/seeds/NAME.md and the README's seed paragraphs (the latest run of each seed suite in #{DOCS_SEEDS_DIR})"
  task :seeds do
    DocsHelper.seeds
  end
end

# What the docs tasks share: reading stored runs, drawing one chart, and
# rewriting a marked block of README.md.
module DocsHelper
  extend Rake::FileUtilsExt

  module_function

  def sample
    store, run = latest(DOCS_QUICK, "quick")
    measurements = store.measurements(run["id"])
    table = Rackbench::Reports.fetch("table").new(run, measurements).render
    excerpt = excerpt(table, ["puma x0:16", "thin"])
    chart = chart(run, measurements, "quick", prefer: /sleep-50-throughput/) or raise "the quick run measured nothing"
    replace_block("sample", <<~MD)
      The quick suite (`bin/rackbench run`) on a 2-core machine that was busy with other work, so its
      intervals are wide and its warnings say so. The end of what it printed (`bin/rackbench report --format table`),
      /sleep/50 rows of two of its five servers:

      ```text
      #{excerpt.strip}
      ```

      ![#{chart["title"]}](#{chart["path"]})
    MD
  end

  def seeds
    paragraphs = DOCS_SEEDS.map do |suite, number|
      store, run = latest(DOCS_SEEDS_DIR, suite)
      page = "doc/seeds/#{suite}.md"
      sh "bin/rackbench", "report", run["id"].to_s, "--results", DOCS_SEEDS_DIR, "--format", "article", "--output", page
      seed_paragraph(suite, number, store, run, page)
    end
    replace_block("seeds", paragraphs.join("\n"))
  end

  def load_rackbench
    $LOAD_PATH.unshift(File.join(DOCS_ROOT, "lib"))
    require "rackbench"
    require "rackbench/charts/page"
    require "rackbench/charts/renderer"
  end

  # The store and the latest run of suite in dir.
  def latest(dir, suite)
    load_rackbench
    store = Rackbench::Store.new(dir)
    row = store.runs.find { |r| r["suite"] == suite && r["status"] == "finished" }
    raise "no finished run of #{suite} in #{dir}: run `bundle exec rake docs:runs` first" unless row

    [store, store.run(row["id"])]
  end

  # Draws the run's chart whose name matches prefer (else the page's lead
  # chart) into doc/images/NAME.svg; nil when nothing was measured.
  def chart(run, measurements, name, prefer: nil)
    page = Rackbench::Charts::Page.new(run, measurements)
    chart = (prefer && page.all.find { |c| c["name"].match?(prefer) }) || page.lead
    return nil unless chart

    dir = File.join(DOCS_ROOT, "tmp", "docs-charts", name)
    path = Rackbench::Charts::Renderer.new.render([chart], dir).first
    FileUtils.mkdir_p(File.join(DOCS_ROOT, "doc", "images"))
    FileUtils.cp(path, File.join(DOCS_ROOT, "doc", "images", "#{name}.svg"))
    { "title" => chart["title"], "path" => "doc/images/#{name}.svg" }
  end

  def seed_paragraph(suite, number, store, run, page)
    measurements = store.measurements(run["id"])
    summary = Rackbench::Article::Summary.new(run, measurements)
    chart = chart(run, measurements, suite)
    how = run.dig("settings", "scaled", "by")
    command = ["bin/rackbench run #{suite}", how && "--#{how}", "--results #{DOCS_SEEDS_DIR}"].compact.join(" ")
    claims = summary.verdicts.map { |v| "#{v["says"]}: **#{v["answer"]}**" }
    image = chart ? "![#{chart["title"]}](#{chart["path"]})" : "(Nothing was measured in this run, so it has no chart.)"
    <<~MD
      ### #{number} · #{summary.article["title"]}

      `#{command}`. The article's claims against it: #{claims.join("; ")}.
      [The report](#{page}): `bin/rackbench report #{run["id"]} --results #{DOCS_SEEDS_DIR} --format article --output #{page}`.

      #{image}
    MD
  end

  # The /sleep/50 block of a table report with only the given configs' rows,
  # its verdicts and its warnings.
  def excerpt(table, labels)
    block = table[%r{^/sleep/50\n.*}m] or raise "the quick run has no /sleep/50 block"
    kept = block.lines.select do |line|
      !line.match?(/\A\S/) || line.start_with?("/sleep", "Server", "---", "Verdicts", "Warnings", *labels)
    end
    kept.reject { |l| l.start_with?("  /hello") }.join
  end

  # Replaces what lies between <!-- NAME:start --> and <!-- NAME:end --> in README.md.
  def replace_block(name, text)
    readme = File.join(DOCS_ROOT, "README.md")
    content = File.read(readme)
    pattern = /(<!-- #{name}:start -->\n).*?(<!-- #{name}:end -->)/m
    raise "README.md has no #{name}:start/#{name}:end markers" unless content.match?(pattern)

    File.write(readme, content.sub(pattern) { "#{Regexp.last_match(1)}#{text.strip}\n#{Regexp.last_match(2)}" })
    puts "README.md: #{name} block rewritten"
  end
end
