# frozen_string_literal: true

# The figures of the README and doc/, regenerated from stored runs:
#
#   bundle exec rake docs:runs   # make the runs (slow): the quick suite (stored in doc/runs/quick),
#                                # a tune, the rate-auto suite, the closed/open-loop example, each seed
#                                # suite at the size that decides (docs_seeds.rake), a calibrate, an ab,
#                                # bench/engine, bench/accuracy, doc/own-app.md's walkthroughs and bench/fresh
#   bundle exec rake docs        # doc/servers.md's matrix, README's sample; doc/tune.md's real run,
#                                # rates: auto run and closed/open-loop example; doc/doctor.md's example;
#                                # doc/seeds.md and doc/seeds/*.md; doc/images/*.svg; doc/calibrate.md's,
#                                # doc/ab.md's and doc/own-app.md's output; ext/rackbench_load/README.md's
#                                # speed and accuracy figures; the README's quick-start time
#   bundle exec rake docs:bench_tune  # doc/tune.md's search-against-grid lines, from bench/tune's stored output
#
# The quick run the README's sample comes from is committed (doc/runs/quick),
# so `rake docs:sample` renders it again with the current code whenever a
# report changes, and test/docs/readme_sample_test.rb checks that the README
# holds what `rackbench report` prints for it now. The tune runs are read
# from tmp/docs-runs/tune (TUNE_RESULTS names another folder); the seed runs
# are kept in doc/runs/seeds (docs_seeds.rake). Every figure comes from one of these runs,
# through the commands the pages name.
DOCS_ROOT = File.expand_path("..", __dir__)
DOCS_QUICK_RUN = ENV.fetch("QUICK_RESULTS", "tmp/docs-runs/quick")
DOCS_QUICK_STORE = "doc/runs/quick" # Rackbench::Docs::ReadmeSample::STORE_DIR
DOCS_TUNE = ENV.fetch("TUNE_RESULTS", "tmp/docs-runs/tune")
# p90, not p99: on the shared 2-core machine the docs are made on, an idle puma's p99 on /sleep/50 passed
# 200 ms (other processes' CPU), so a p99 bound measured the neighbours (doc/tune.md says so).
DOCS_TUNE_COMMAND = ["bin/rackbench", "tune", "--endpoint", "/sleep/50", "--slo", "p90<=150ms", "--budget", "180"].freeze
DOCS_RATE_AUTO = ENV.fetch("RATE_AUTO_RESULTS", "tmp/docs-runs/rate-auto")
DOCS_BENCH_TUNE = ENV.fetch("BENCH_TUNE_RESULTS", "tmp/bench-tune-full")
DOCS_DOCTOR_APP = "test/fixtures/doctor/rails_pool"

desc "Regenerate every figure of the README, doc/ and the engine README from the kept runs (each task below)"
task docs: %w[docs:servers docs:sample docs:tune docs:rate_auto docs:latency docs:doctor docs:seeds docs:calibrate docs:ab
              docs:explain docs:engine docs:accuracy docs:own_app docs:fresh docs:calibration_simulation docs:layering]

namespace :docs do
  desc "Make the runs the docs are drawn from (slow): the quick suite, a tune, rate-auto, the closed/open-loop example, " \
       "each seed suite at the size that decides, calibrate, ab, the explain runs, the engine's benches, doc/own-app.md's " \
       "walkthroughs, bench/fresh, the calibration simulation"
  task runs: %w[runs:quick runs:tune runs:rate_auto runs:latency runs:seeds runs:calibrate runs:ab runs:explain
                runs:engine runs:accuracy runs:own_app runs:fresh runs:calibration_simulation]

  namespace :runs do
    # Exit status 3 (some cells failed: TorqueBox cannot run on Java 17) is a result, not an error.
    tolerate = ->(_ok, status) { raise "#{status.inspect}: the run did not finish" unless [0, 3].include?(status.exitstatus) }

    desc "Run the quick suite and store it in #{DOCS_QUICK_STORE} (the README's sample)"
    task :quick do
      rm_rf DOCS_QUICK_RUN
      sh("bin/rackbench", "run", "quick", "--results", DOCS_QUICK_RUN, &tolerate)
      DocsHelper.keep_store(DOCS_QUICK_RUN, DOCS_QUICK_STORE)
    end

    desc "Tune puma on /sleep/50 into #{DOCS_TUNE} (doc/tune.md's real run)"
    task :tune do
      rm_rf DOCS_TUNE
      sh(*DOCS_TUNE_COMMAND, "--results", DOCS_TUNE, &tolerate)
    end
  end
end

# Rendering: what the pages show of those runs.
namespace :docs do
  desc "doc/servers.md, the support matrix (bin/rackbench servers --probe --format markdown)"
  task :servers do
    DocsHelper.servers
  end

  desc "The README's sample output and chart, from the quick run in #{DOCS_QUICK_STORE}"
  task :sample do
    DocsHelper.load_rackbench
    store = Rackbench::Store.new(DOCS_QUICK_STORE)
    sample = Rackbench::Docs::ReadmeSample.new(store)
    DocsHelper.draw(sample.chart, Rackbench::Docs::ReadmeSample::IMAGE)
    DocsHelper.replace_block("README.md", "sample", sample.markdown)
    store.close
  end

  desc "doc/tune.md's real run: the stored tune run in #{DOCS_TUNE}, as its report prints it"
  task :tune do
    DocsHelper.tune
  end

  desc "doc/doctor.md's example: rackbench doctor on #{DOCS_DOCTOR_APP}"
  task :doctor do
    DocsHelper.doctor
  end
end

# What the docs tasks share: reading stored runs, drawing one chart, and
# rewriting a marked block of a page.
module DocsHelper
  extend Rake::FileUtilsExt

  module_function

  def load_rackbench
    $LOAD_PATH.unshift(File.join(DOCS_ROOT, "lib"))
    require "rackbench"
    require "rackbench/article/summary"
    require "rackbench/reports/parts/claim_text"
    require_relative "docs/readme_sample"
    require_relative "docs/latency_demo"
    require_relative "docs/tune_pages"
  end

  # Copies the store in from_dir (its runs, not their raw output) to to_dir, compacted.
  def keep_store(from_dir, to_dir)
    target = File.join(to_dir, "rackbench.sqlite3")
    mkdir_p to_dir
    rm_f [target, "#{target}-wal", "#{target}-shm"]
    sh "sqlite3", File.join(from_dir, "rackbench.sqlite3"), "VACUUM INTO '#{target}'"
  end

  def servers
    table = `bin/rackbench servers --probe --format markdown`
    raise "bin/rackbench servers failed" unless $?.success? # rubocop:disable Style/SpecialGlobalVars

    load_rackbench
    require "rackbench/reports/parts/failures"
    replace_block("doc/servers.md", "servers", table.lines.map { |l| Rackbench::Reports::Failures.normalize(l) }.join("\n"))
  end

  def doctor
    out = `bin/rackbench doctor #{DOCS_DOCTOR_APP}`
    # 1: it found a warning, which is what the example shows.
    raise "bin/rackbench doctor failed" unless [0, 1].include?($?.exitstatus) # rubocop:disable Style/SpecialGlobalVars

    replace_block("doc/doctor.md", "doctor", "```\n$ rackbench doctor #{DOCS_DOCTOR_APP}\n#{out.strip}\n```")
  end

  def tune
    store, run = latest(DOCS_TUNE, "tune")
    report = `bin/rackbench report #{run["id"]} --results #{DOCS_TUNE}`
    raise "bin/rackbench report failed" unless $?.success? # rubocop:disable Style/SpecialGlobalVars

    # The answer down to the recommendation's last line (its continuation lines are indented).
    answer = report[/^rackbench tune:.*?^Recommended: [^\n]*(?:\n {4}[^\n]*)*/m]
    raise "run #{run["id"]} in #{DOCS_TUNE} is not a tune run" unless answer

    cores = run.dig("machine", "cores")
    replace_block("doc/tune.md", "tune-run", <<~MD)
      `#{DOCS_TUNE_COMMAND.map { |a| a.include?("<") ? "'#{a}'" : a }.join(" ")}` on a #{cores}-core machine shared with other
      work (server pinned to one CPU, load on the other); what `bin/rackbench report #{run["id"]} --results #{DOCS_TUNE}`
      prints of its answer:

      ```text
      #{answer.strip}
      ```
    MD
    store.close
  end

  # The store and the latest finished run of suite in dir.
  def latest(dir, suite)
    load_rackbench
    store = Rackbench::Store.new(dir)
    row = store.runs.find { |r| r["suite"] == suite && r["status"] == "finished" }
    raise "no finished run of #{suite} in #{dir}: run `bundle exec rake docs:runs` first" unless row

    [store, store.run(row["id"])]
  end

  # Renders a chart spec to path (an SVG under doc/images).
  def draw(chart, path)
    require "rackbench/charts/renderer"
    dir = File.join(DOCS_ROOT, "tmp", "docs-charts", File.basename(path, ".svg"))
    drawn = Rackbench::Charts::Renderer.new.render([chart], dir).first
    mkdir_p File.dirname(File.join(DOCS_ROOT, path))
    cp drawn, File.join(DOCS_ROOT, path)
  end

  # Draws the run's lead chart into doc/images/NAME.svg; nil when nothing was measured.
  def chart(run, measurements, name)
    chart = Rackbench::Charts::Page.new(run, measurements).lead
    return nil unless chart

    draw(chart, "doc/images/#{name}.svg")
    { "title" => chart["title"], "path" => "images/#{name}.svg" }
  end

  # Replaces what lies between <!-- NAME:start --> and <!-- NAME:end --> in page.
  def replace_block(page, name, text)
    path = File.join(DOCS_ROOT, page)
    content = File.read(path)
    pattern = /(<!-- #{name}:start -->\n).*?(<!-- #{name}:end -->)/m
    raise "#{page} has no #{name}:start/#{name}:end markers" unless content.match?(pattern)

    File.write(path, content.sub(pattern) { "#{Regexp.last_match(1)}#{text.strip}\n#{Regexp.last_match(2)}" })
    puts "#{page}: #{name} block rewritten"
  end
end
