# frozen_string_literal: true

require "time"

# doc/front.md, "What goes in front of Puma today?": the claims of the built-in
# front and front-slow suites, stated first, then each stored run's article
# report, which answers them with their intervals. `rake docs:runs:front`
# makes the two runs (it measures: at most 20 minutes here) and keeps them in
# doc/runs/front; `rake docs:front` writes the page from the stored runs with
# the current code.
DOCS_FRONT_RUN = ENV.fetch("FRONT_RESULTS", "tmp/docs-runs/front")
DOCS_FRONT_STORE = "doc/runs/front"
DOCS_FRONT_PAGE = "doc/front.md"
DOCS_FRONT_SUITES = %w[front front-slow].freeze

namespace :docs do
  namespace :runs do
    desc "Run the front suite and store it in #{DOCS_FRONT_STORE} (doc/front.md)"
    task :front do
      rm_rf DOCS_FRONT_RUN
      DOCS_FRONT_SUITES.each do |suite|
        sh("bin/rackbench", "run", suite, "--results", DOCS_FRONT_RUN) do |_ok, status|
          raise "#{status.inspect}: the run did not finish" unless [0, 3].include?(status.exitstatus)
        end
      end
      DocsHelper.keep_store(DOCS_FRONT_RUN, DOCS_FRONT_STORE)
    end
  end

  desc "#{DOCS_FRONT_PAGE} from the front run stored in #{DOCS_FRONT_STORE}"
  task :front do
    runs = DOCS_FRONT_SUITES.map do |suite|
      store, run = DocsHelper.latest(DOCS_FRONT_STORE, suite)
      answers = Rackbench::Article::Summary.new(run, store.measurements(run["id"])).answers
      store.close
      report = `bin/rackbench report #{run["id"]} --results #{DOCS_FRONT_STORE} --format article`
      raise "bin/rackbench report failed" unless $?.success? # rubocop:disable Style/SpecialGlobalVars

      [run.merge("answers" => answers), report]
    end
    File.write(File.join(DOCS_ROOT, DOCS_FRONT_PAGE), DocsFront.page(runs))
    puts "#{DOCS_FRONT_PAGE} written from runs #{runs.map { |r, _| r["id"] }.join(" and ")} in #{DOCS_FRONT_STORE}"
  end
end

# The page around the reports: the question, the claims up front, how the runs were made.
module DocsFront
  module_function

  def page(runs)
    fast, = runs.first
    <<~MD
      # What goes in front of Puma today?

      Two seed articles asked what belongs in front of a Ruby server (001: Thin behind nginx on Unix
      sockets; 004: lighttpd balancing Mongrels). The built-in `front` and `front-slow` suites ask it of
      today's stack: Puma alone, behind Thruster (the proxy Rails 8 puts in front of Puma; with and without
      its gzip) and behind nginx (gzip and X-Accel-Redirect on), on a 1 KB and a 1 MB answer that do not
      compress, 1 MB of HTML that does, and a 1 MB static file a proxy may send itself; first with
      full-speed clients only, then with slow clients beside them. Every request says
      `Accept-Encoding: gzip`, as a browser's does.

      ## The claims

      What is said of today's front of the stack, each answered by the runs below: how many times better
      the first config is than the second, with the 95 % interval of that ratio over server starts; "yes"
      or "no" only where the interval lies wholly on one side of 1, "not settled" otherwise (with the starts
      more that would likely settle it).

      #{claims(runs)}

      ## The runs

      `bin/rackbench run front` and `bin/rackbench run front-slow` (`bundle exec rake docs:runs:front` keeps
      them in `#{DOCS_FRONT_STORE}`) on a #{fast.dig("machine", "cores")}-core machine shared with other work:
      #{timings(runs)}. Thruster #{versions(fast)}. This page is `bundle exec rake docs:front`, which prints
      each run's `bin/rackbench report RUN --results #{DOCS_FRONT_STORE} --format article` below.

      #{runs.map { |_, report| report.strip }.join("\n\n")}
    MD
  end

  # "front took 12m14s (load average 21.0 as it started)" for each run.
  def timings(runs)
    runs.map do |run, _|
      took_s = (Time.parse(run["finished_at"]) - Time.parse(run["started_at"])).round
      "#{run["suite"]} took #{took_s / 60} m #{took_s % 60} s (load average #{run.dig("machine",
                                                                                      "loadavg")&.first} as it started)"
    end.join(", ")
  end

  def versions(run)
    "#{run.dig("machine", "proxies", "thruster")}, nginx #{run.dig("machine", "proxies", "nginx")}, " \
      "puma #{run.dig("machine", "gems", "puma")}"
  end

  def claims(runs)
    texts = runs.flat_map { |run, _| run["answers"] }.map { |answer| Rackbench::Reports::ClaimText.new(answer) }
    texts.each_with_index.map { |t, i| "#{i + 1}. #{t.answer.says}: **#{t.word}**, #{t.detail}" }.join("\n")
  end
end
