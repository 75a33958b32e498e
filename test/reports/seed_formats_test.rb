# frozen_string_literal: true

require "test_helper"
require_relative "seed_fixtures"
require "rackbench/charts/specs"

module Rackbench
  class SeedFormatsTest < Minitest::Test
    include SeedFixtures

    def lighttpd(server, balance)
      { "server" => server, "instances" => 3, "proxy" => { "proxy" => "lighttpd", "balance" => balance } }
    end

    def hash_rr
      [cell("thin x3 via lighttpd hash", lighttpd("thin", "hash"), rps: 21.41, max_ms: 22_795.0, requests: 10_000,
                                                                   cpu_percent: 115.0),
       cell("thin x3 via lighttpd rr", lighttpd("thin", "round-robin"), rps: 39.73, max_ms: 17_132.0, requests: 10_000,
                                                                        cpu_percent: 315.0),
       cell("mongrel x3 via lighttpd hash", lighttpd("mongrel", "hash"), status: "failed",
                                                                         reason: "mongrel cannot run here: does not build")]
    end

    def render(format, cells, **run) = Reports.fetch(format).new(stored_run(**run), cells).render

    def test_three_column_prints_the_tables_of_002_with_failed_servers_kept_as_rows
      text = render("three_column", hash_rr)
      assert_match "| App server | Throughput (req/s) | Latency (ms) | Req. Errors (n/tot) |", text
      assert_match "| thin, 3 instances, via lighttpd (hash) | 21.41 | 10.00 | 0/30000 |", text
      failed = "| mongrel, 3 instances, via lighttpd (hash) | - | - | not measured: mongrel cannot run here: does not build |"
      assert_match failed, text
      assert_match "rackbench-load -c 10", text
    end

    def test_ab_prints_the_report_of_001_and_004_and_the_side_by_side_lines
      text = render("ab", hash_rr)
      assert_match "Requests per second:    21.41 [#/sec] (mean)", text
      assert_match "Time taken for tests:   1401.262 seconds", text
      assert_match(%r{Transfer rate:\s+52.17 \[Kbytes/sec\] received}, text)
      assert_match(/100%\s+22795 \(longest request\)/, text)
      assert_match(/Server load:\s+1.15 cores busy/, text)
      assert_match "Not measured:           mongrel cannot run here", text
      side_by_side = text[/^#### .*side by side\n(.*)/m, 1]
      assert_match(%r{\| config\s+\| req/s \| total s \|}, side_by_side,
                   "three configs named in full do not fit 120 columns: one row each")
      assert_match(/\| thin, 3 instances, via lighttpd \(round-robin\) \|\s+39.73 \|\s+755.12 \|/, side_by_side)
      assert(side_by_side.lines.all? { |l| l.chomp.length <= 120 }, side_by_side)
    end

    def test_ab_percentiles_come_from_the_native_histogram_when_stored
      histogram = [[1000, 50], [2000, 30], [9000, 19], [40_000, 1]]
      f = Article::Figures.new(cell("puma", { "server" => "puma" }, histogram: histogram))
      assert_equal({ 50 => 1.0, 66 => 2.0, 75 => 2.0, 80 => 2.0, 90 => 9.0, 95 => 9.0, 98 => 9.0, 99 => 9.0, 100 => 40.0 },
                   f.percentiles_ms)
    end

    def test_sweep_puts_concurrency_on_the_columns_and_configs_side_by_side_at_the_top_level
      cells = [1, 10].flat_map do |c|
        [cell("unicorn x2", { "server" => "unicorn", "workers" => 2 }, endpoint: "sleep", concurrency: c, rps: 1.0 * c),
         cell("puma x2:10", { "server" => "puma", "workers" => 2, "threads" => 10 }, endpoint: "sleep", concurrency: c,
                                                                                     rps: 5.0 * c, mean_ms: 2000.0)]
      end
      text = render("sweep", cells)
      assert_match(%r{\| req/s \\ concurrency\s+\|\s+1 \|\s+10 \|}, text)
      assert_match(/\| puma, 2 workers x 10 threads\s+\|\s+5.0 \|\s+50.0 \|/, text)
      assert_match(/\| mean response time \(ms\) \\ concurrency/, text)
      assert_match(/Configurations side by side at concurrency 10.*\n.*unicorn, 2 workers.*puma, 2 workers x 10 threads/, text)
    end

    def test_article_puts_the_conclusion_the_scaling_and_the_verdicts_next_to_the_tables
      article = { "title" => "lighttpd balancing", "seed" => "004_d5fd84afbf770cf8.txt", "found" => "Hash was half as fast.",
                  "tables" => ["ab"],
                  "claims" => [{ "says" => "Round-robin beats hash", "a" => { "proxy" => { "balance" => "round-robin" } },
                                 "b" => { "proxy" => { "balance" => "hash" } } }] }
      scaled = { "by" => "scale", "changes" => [{ "key" => "requests", "from" => 10_000, "to" => 3000 }] }
      text = render("article", hash_rr, article: article, scaled: scaled)
      assert_match "## lighttpd balancing\n\nSeed: 004_d5fd84afbf770cf8.txt", text
      assert_match "Scaled for this machine (--scale): requests 10000 -> 3000", text
      assert_match "Hash was half as fast.", text
      claim = "- Round-robin beats hash: yes, 1.86x [1.86, 1.86] " \
              "(thin x3 via lighttpd rr 39.73 good req/s vs thin x3 via lighttpd hash 21.41 good req/s)"
      assert_match claim, text
      assert_match "- mongrel (hello c=10): mongrel cannot run here: does not build", text
      assert_match "Not measured:           (reason above)", text
    end

    def test_article_says_what_was_scaled_for_which_endpoint_by_how_many_cpus_and_where_the_server_ran
      article = { "title" => "t", "machine" => "4 cores, ab on it", "cpus" => 4, "tables" => ["ab"] }
      scaled = { "by" => "scale", "note" => "Only sleep ties workers to clients.",
                 "cpus" => { "server" => 2, "pinned" => false, "article" => 4 },
                 "changes" => [{ "key" => "concurrency", "from" => 500, "to" => 100, "endpoint" => "sleep" },
                               { "key" => "workers", "from" => 4, "to" => 2 }] }
      text = render("article", hash_rr, article: article, scaled: scaled)
      assert_match "Scaled for this machine (--scale): concurrency of sleep 500 -> 100; workers 4 -> 2 " \
                   "(by CPUs: the server's 2, not pinned, against the article's 4). Only sleep ties workers to clients.", text
      assert_match "The article's machine: 4 cores, ab on it. Here the server had 2 CPUs, not pinned (shared with the " \
                   "load generator).", text.gsub(/\s+/, " ")
      run = stored_run(article: article).merge("pinning" => { "server_cpus" => [0], "client_cpus" => [1] })
      pinned = Reports.fetch("article").new(run, hash_rr).render
      assert_match "Here the server had 1 CPU, pinned (the load generator on another).", pinned.gsub(/\s+/, " ")
    end

    def test_article_states_each_failure_reason_once_however_many_cells_and_claims_it_touches
      reason = "torquebox cannot run here: needs Java 8"
      cells = [10, 100].flat_map do |c|
        [cell("puma x0:16", { "server" => "puma", "threads" => 16 }, concurrency: c),
         cell("torquebox", { "server" => "torquebox" }, concurrency: c, status: "failed", reason: reason),
         cell("trinidad x1", { "server" => "trinidad", "workers" => 1 }, concurrency: c, status: "failed",
                                                                         reason: "trinidad x1 exited (#<Process::Status: " \
                                                                                 "pid #{c} exit 1>)")]
      end
      cells << cell("torquebox x0:4", { "server" => "torquebox", "threads" => 4 }, endpoint: "sleep", status: "failed",
                                                                                   reason: reason)
      article = { "title" => "Benchmarking TorqueBox", "seed" => "000", "tables" => %w[three_column ab],
                  "claims" => [{ "says" => "TorqueBox beats Puma", "a" => { "server" => "torquebox" },
                                 "b" => { "server" => "puma" } }] }
      text = render("article", cells, article: article)
      assert_equal 1, text.scan(reason).size, text
      assert_equal 1, text.scan("trinidad x1 exited (exit 1)").size, text
      assert_match "- TorqueBox beats Puma: cannot show here, not measured: torquebox (reason above)", text
      assert_match "| torquebox | - | - | not measured (reason above) |", text
      assert_match "- trinidad (hello c=10, hello c=100): trinidad x1 exited (exit 1)", text
      assert_match "- torquebox (hello c=10, hello c=100, sleep c=10, 2 configs): #{reason}", text
    end

    def test_chart_specs_follow_the_kinds_the_article_asks_for
      series = (1..3).map { |t| { "t_s" => t.to_f, "requests" => 100 * t } }
      cells = [1, 10].flat_map do |c|
        [cell("unicorn x2", { "server" => "unicorn" }, concurrency: c, series: series),
         cell("torquebox", { "server" => "torquebox" }, concurrency: c, status: "failed", reason: "no JRuby")]
      end
      run = stored_run(article: { "charts" => ["concurrency", "timeline", { "kind" => "bars", "metric" => "longest_ms" },
                                               "tuning"] })
      specs = Charts::Specs.new(run, cells).all
      names = specs.map { |s| s["name"] }
      assert_equal %w[rack-hello-reqs rack-hello-latency rack-hello-at-concurrency-1-timeline
                      rack-hello-at-concurrency-10-timeline rack-hello-at-concurrency-1-longest-ms
                      rack-hello-at-concurrency-10-longest-ms
                      configs-c10-requests-per-s endpoints-c10-requests-per-s
                      configs-c10-latency-mean-ms endpoints-c10-latency-mean-ms], names
      assert(specs.all? { |s| s["spec"]["title"]["subtitle"] == ["not measured: torquebox"] })
    end
  end
end
