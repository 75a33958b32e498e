# frozen_string_literal: true

# The native engine's figures in ext/rackbench_load/README.md, from the two
# benches that measure it (Rackbench::Docs::Transcript, as docs_transcripts.rake):
# `rake docs:runs:engine` and `rake docs:runs:accuracy` run them and keep what
# they printed; `rake docs:engine` and `rake docs:accuracy` write the page's blocks.
#
#   bench/engine     rackbench-load against wrk on nginx and unicorn: req/s, client CPU per request
#   bench/accuracy   open-loop rates achieved, Little's law, the warm-up cut
DOCS_ENGINE_PAGE = "ext/rackbench_load/README.md"
DOCS_ENGINE_BENCHES = {
  "engine" => { dir: ENV.fetch("ENGINE_RESULTS", "tmp/docs-runs/engine"), argv: %w[bench/engine --rounds 5 --duration 5] },
  "accuracy" => { dir: ENV.fetch("ACCURACY_RESULTS", "tmp/docs-runs/accuracy"),
                  argv: %w[bench/accuracy --rounds 3 --duration 3] }
}.freeze

namespace :docs do
  namespace :runs do
    DOCS_ENGINE_BENCHES.each do |name, bench|
      desc "#{bench[:argv].join(" ")}, its output kept in #{bench[:dir]} (#{DOCS_ENGINE_PAGE})"
      task name.to_sym do
        rm_rf bench[:dir]
        DocsTranscripts.record(bench[:dir], bench[:argv], shown: bench[:argv].join(" "), chdir: DOCS_ROOT)
      end
    end
  end

  DOCS_ENGINE_BENCHES.each do |name, bench|
    desc "#{DOCS_ENGINE_PAGE}'s #{name} figures: what `rake docs:runs:#{name}` kept in #{bench[:dir]}"
    task name.to_sym do
      DocsTranscripts.write(DOCS_ENGINE_PAGE, name, bench[:dir])
    end
  end
end
