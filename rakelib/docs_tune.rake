# frozen_string_literal: true

# doc/tune.md's measured pages beside its tune run (docs.rake): the rates:
# auto run, the closed-loop and open-loop example, and bench/tune's lines.
# The runs are made by docs:runs (docs:runs:rate_auto, docs:runs:latency);
# bench/tune is run by hand (`bundle exec bench/tune --full-grid --results
# tmp/bench-tune-full`: 27 minutes on a quiet 2-core machine) and leaves its output in
# tmp/bench-tune-full/bench-tune.txt.
namespace :docs do
  namespace :runs do
    desc "Run the built-in rate-auto suite into #{DOCS_RATE_AUTO} (doc/tune.md's rates: auto run)"
    task :rate_auto do
      rm_rf DOCS_RATE_AUTO
      sh("bin/rackbench", "run", "rate-auto", "--results", DOCS_RATE_AUTO) do |_ok, status|
        raise "#{status.inspect}: the run did not finish" unless [0, 3].include?(status.exitstatus)
      end
    end

    desc "Load one puma thread open loop and closed loop (doc/tune.md's closed-loop and open-loop example)"
    task :latency do
      DocsHelper.load_rackbench
      Rackbench::Docs::LatencyDemo.new.run
    end
  end
end

namespace :docs do
  desc "doc/tune.md's rates: auto run: the stored rate-auto run in #{DOCS_RATE_AUTO}, as its report prints it"
  task :rate_auto do
    store, run = DocsHelper.latest(DOCS_RATE_AUTO, "rate-auto")
    DocsHelper.replace_block("doc/tune.md", "rate-auto", Rackbench::Docs::TunePages.rate_auto(run, DOCS_RATE_AUTO))
    DocsHelper.replace_block("doc/tune.md", "rate-auto-formats",
                             Rackbench::Docs::TunePages.rate_auto_formats(run, DOCS_RATE_AUTO))
    store.close
  end

  desc "doc/tune.md's closed-loop and open-loop example, from the outputs docs:runs:latency stored"
  task :latency do
    DocsHelper.load_rackbench
    DocsHelper.replace_block("doc/tune.md", "latency-demo", Rackbench::Docs::LatencyDemo.new.markdown)
  end

  desc "doc/tune.md's search against the full grid: bench/tune's output stored in #{DOCS_BENCH_TUNE}/bench-tune.txt"
  task :bench_tune do
    DocsHelper.load_rackbench
    command = "bundle exec bench/tune --full-grid --results #{DOCS_BENCH_TUNE}"
    DocsHelper.replace_block("doc/tune.md", "bench-tune-full", Rackbench::Docs::TunePages.bench_tune(DOCS_BENCH_TUNE, command))
  end
end
