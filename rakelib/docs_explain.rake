# frozen_string_literal: true

# doc/explain.md, doc/capacity.md and the README's "Why is it slow?" show
# `rackbench explain` on two real runs kept in doc/runs/explain
# (Rackbench::Docs::ExplainSample): `rake docs:runs:explain` makes the runs
# (slow: it measures), `rake docs:explain` writes the blocks from the stored
# runs with the current code. `rake docs:runs` and `rake docs` include both.
DOCS_EXPLAIN_RUN = ENV.fetch("EXPLAIN_RESULTS", "tmp/docs-runs/explain")
DOCS_EXPLAIN_STORE = "doc/runs/explain" # Rackbench::Docs::ExplainSample::STORE_DIR

namespace :docs do
  namespace :runs do
    desc "Run bench/explain/suite.yml and capacity.yml and store them in #{DOCS_EXPLAIN_STORE}"
    task :explain do
      rm_rf DOCS_EXPLAIN_RUN
      sh("bin/rackbench", "run", "bench/explain/suite.yml", "--no-doctor", "--results", DOCS_EXPLAIN_RUN)
      sh("bin/rackbench", "run", "bench/explain/capacity.yml", "--no-doctor", "--results", DOCS_EXPLAIN_RUN)
      DocsHelper.keep_store(DOCS_EXPLAIN_RUN, DOCS_EXPLAIN_STORE)
    end
  end

  desc "doc/explain.md, doc/capacity.md and the README's 'Why is it slow?' from the runs in #{DOCS_EXPLAIN_STORE}"
  task :explain do
    DocsHelper.load_rackbench
    require_relative "docs/explain_sample"
    store = Rackbench::Store.new(DOCS_EXPLAIN_STORE)
    Rackbench::Docs::ExplainSample.new(store).blocks.each { |(page, name), text| DocsHelper.replace_block(page, name, text) }
    store.close
  end
end
