# frozen_string_literal: true

require "test_helper"

module Rackbench
  # rackbench tune with a real puma: one config searched twice (a grid of
  # one), probed open loop; the answer, the stored probes; a budget of one
  # search, and a memory budget no config fits.
  # /sleep/10 on one thread: rates near 100 req/s keep every probe at its
  # shortest, where /sleep/50's 20 req/s made probes of 5 s and more. The
  # shortest is 1 s (--probe-s 1): a p50 decision needs 20 requests, and
  # even the lowest rates searched (a few tens a second) bring more.
  class TuneCommandTest < Minitest::Test
    # A tune confirms its knee on a fresh start and re-probes unclear rates
    # (Tune::Knee): on a busy machine one search took past 240 s in a CI run.
    # A safety net, far from the usual minute or two.
    def time_limit_s = 600

    # One config, one thread, of a mix (half /hello, half /sleep/10), given
    # its two searches by --grid: the answer, its interval, every probe
    # stored, each sending both members. The SLO, p50 <= 50 ms, is five times
    # the sleep: with 20 ms no rate met it in a whole-suite run at load 20-40
    # (18 probes: the machine's waits for a CPU, not the server's queue, set
    # the median); what is checked here does not depend on where the knee lies.
    def test_a_grid_of_one_config_of_a_mix_searches_it_twice_and_stores_every_probe
      status, out, err = run_cli("tune", "--mix", "/hello=1,/sleep/10=1", "--slo", "p50<=50ms", "--workers", "0",
                                 "--threads", "1", "--grid", "--searches", "2", "--probe-s", "1", "--results", tmpdir)
      assert_equal 0, status, "#{out}\n#{err}"
      assert_match %r{^rackbench tune: puma on rack mix /hello=1,/sleep/10=1}, out
      # The knee with where it lies: an interval from two searches, each on its own two deployments.
      # (or, when the met rate is below that interval, "sustains N req/s; knee [low, high]").
      knee = %r{(?:knee (\d+) req/s|sustains (\d+) req/s; knee) \[(\d+), (\d+)\] from 2 searches}
      assert_match(/^puma x0:1: #{knee} at p50 <= 50\.0 ms, errors <= 0\.1 %, \d+ MB PSS; the only config with a knee$/, out)
      assert_match(/#{knee} \(\d+ probes on 4 deployments\)/, out)
      inside, below, low, high = out.match(/^puma x0:1: #{knee}/).captures
      rate = (inside || below).to_i
      progress = out.scan(/^  puma x0:1: #{knee}/).last
      assert_equal rate, (progress[0] || progress[1]).to_i, "the progress line says the answer's figure"
      assert_operator low.to_i, :<=, high.to_i
      assert(below ? rate < low.to_i : rate.between?(low.to_i, high.to_i), "a knee is never printed outside its interval")
      assert_operator rate, :<=, 201, "one thread whose every other request sleeps 10 ms cannot serve more than 200 req/s"
      assert_operator rate, :>, 0, "a rate was found"
      store = Store.new(tmpdir)
      probes = store.measurements(store.run["id"])
      assert_operator probes.size, :>=, 4, "growth, bisection and confirmations are all stored"
      assert_equal [1, 2, 3, 4], probes.map { |m| m.repeats.first.deployment }.uniq.sort,
                   "each search's knee is probed again on a fresh deployment"
      assert(probes.all?(&:offered_rate_per_s), "each probe records its offered rate")
      assert_the_probes_last_at_least_one_second(store, probes)
      sent = probes.max_by(&:requests).repeats.first.result.endpoints.to_h { |e| [e["name"], e["requests"]] }
      assert_equal %w[/hello /sleep/10], sent.keys.sort
      assert(sent.values.all?(&:positive?), "each probe sends every member of the mix: #{sent.inspect}")
      assert_the_reports_show_the_answer(store.run["id"], out[/^puma x0:1: (knee|sustains) .*$/])
      assert_nothing_left
    ensure
      store&.close
    end

    # --probe-s 1, stored with the run: each probe's window (the engine's
    # --duration) is 1 s, or long enough for a p50's 20 requests at its rate.
    def assert_the_probes_last_at_least_one_second(store, probes)
      assert_equal 1, store.run["settings"].dig("tune", "probe_s"), "the shortest probe asked for is the run's"
      lengths = probes.map { |m| [m.offered_rate_per_s, m.repeats.first.result.command.join(" ")[/--duration (\S+)/, 1]] }
      wanted = lengths.map do |rate, _|
        seconds = (20 / rate.to_f).clamp(1, 10).round(1)
        [rate, seconds == seconds.round ? "#{seconds.round}s" : "#{(seconds * 1000).round}ms"]
      end
      assert_equal wanted, lengths, "1 s probes, longer only where a rate brings fewer than 20 requests"
    end

    # The answer is stored with the run: every report of it says it again,
    # and the html page draws the knee curve (one config: no heat map).
    def assert_the_reports_show_the_answer(run_id, sentence)
      _, table, = run_cli("report", run_id.to_s, "--results", tmpdir)
      assert_includes table.gsub("\n    ", " "), "Recommended: #{sentence}", "the table wraps long lines, indented"
      assert_includes table.gsub("\n    ", " "), "1 to 10 s windows", "the settings say the probes' lengths"
      _, markdown, = run_cli("report", run_id.to_s, "--format", "markdown", "--results", tmpdir)
      assert_includes markdown, "**Recommended: #{sentence}**"
      _, path, = run_cli("report", run_id.to_s, "--format", "html", "--results", tmpdir)
      html = File.read(path.strip)
      names = html.scan(/data-name="([^"]+)"/).flatten
      assert_equal %w[tune-knees tune-memory], names
      knees = JSON.parse(html[%r{<script type="application/json" id="rackbench-charts">(.*?)</script>}m, 1]).first
      points = knees["layer"][1]["data"]["values"]
      assert_equal Store.new(tmpdir).measurements(run_id).size, points.size, "a point per probe"
      assert(points.any? { |p| p["met"] } && points.any? { |p| !p["met"] }, "the knee lies between probes that met and missed")
    end

    def suite(text) = File.join(tmpdir, "suite.yml").tap { |path| File.write(path, text) }

    # The suite's app, endpoint, server and shortest probe are what is tuned; a budget used
    # up by the first search ends there; and a memory budget below every
    # config's PSS is one clear message, exit 3.
    def test_a_suite_file_names_what_to_tune_and_a_memory_budget_below_every_config_says_so
      path = suite("app: rack\nendpoints: [/sleep/10]\nprobe_s: 1\nservers:\n  - {server: unicorn, workers: 2}\n")
      status, out, err = run_cli("tune", path, "--slo", "p50<=60ms", "--workers", "1,2", "--budget", "1", "--memory", "1MB",
                                 "--results", tmpdir)
      assert_match %r{^rackbench tune: unicorn on .*/config.ru /sleep/10, p50 <= 60.0 ms, errors <= 0.1 %, memory <= 1 MB}, out
      assert_match(%r{^  unicorn x2: (knee|sustains) \d+ req/s}, out, "the design's first config, its largest, is searched")
      assert_equal 1, out.scan(/^  unicorn x/).size, "one search used the budget up: #{out}"
      assert_equal 3, status, "#{out}\n#{err}"
      assert_match(/every config that met the SLO is over --memory 1 MB: the smallest, unicorn x2, used \d+ MB PSS/, out)
      assert_match(/^\(1 configs tried in \d+ s: 1 searched, 0 screened out;/, out)
      store = Store.new(tmpdir)
      assert_equal 1, store.run["settings"].dig("tune", "probe_s"), "the suite's probe_s: is the search's"
      assert_nothing_left
    ensure
      store&.close
    end

    def test_a_suite_with_several_endpoints_and_no_mix_asks_for_one
      path = suite("app: rack\nendpoints: [/hello, /sleep/50]\nservers: [{server: puma}]\n")
      status, _, err = run_cli("tune", path, "--slo", "p99<=300ms")
      assert_equal 2, status
      assert_match "#{path}: tune takes one endpoint or a mix; this suite has 2 (/hello, /sleep/50): choose one with --endpoint",
                   err
    end

    def test_bad_options_name_themselves
      status, _, err = run_cli("tune", "--endpoint", "/hello", "--slo", "fast")
      assert_equal 2, status
      assert_match "--slo: cannot read \"fast\"", err
      status, _, err = run_cli("tune", "--endpoint", "/hello", "--slo", "p99<=1s", "--budget", "soon")
      assert_equal 2, status
      assert_match "--budget: cannot read \"soon\"", err
      status, _, err = run_cli("tune", "--mix", "/hello=1,/sleep", "--slo", "p99<=1s")
      assert_equal [2, "rackbench: --mix: cannot read \"/sleep\"; write PATH=WEIGHT, e.g. /sleep/50=80"],
                   [status, err.lines.last.strip]
      status, _, err = run_cli("tune", "--endpoint", "/hello", "--slo", "p99<=1s", "--threads", "4,many")
      assert_equal [2, "rackbench: --threads: want a list of whole numbers like 1,2,4, got \"4,many\""],
                   [status, err.lines.last.strip]
      status, _, err = run_cli("tune", "--endpoint", "/hello", "--slo", "p99<=1s", "--vary", "jit")
      assert_equal 2, status
      assert_match "--vary: cannot vary \"jit\"", err
      status, _, err = run_cli("tune", "--endpoint", "/hello", "--slo", "p99<=1s", "--searches", "1")
      assert_equal [2, "rackbench: --searches: want a whole number of at least 2, got \"1\""], [status, err.lines.last.strip]
      status, _, err = run_cli("tune", "--endpoint", "/hello", "--slo", "p99<=1s", "--probe-s", "0.1")
      assert_equal [2, "rackbench: --probe-s must be a finite number of seconds from 0.5 up to 10, got \"0.1\""],
                   [status, err.lines.last.strip]
      status, _, err = run_cli("tune", "--endpoint", "/hello", "--slo", "p99<=1s", "--probe-s", "soon")
      assert_equal [2, "rackbench: --probe-s must be a finite number of seconds from 0.5 up to 10, got \"soon\""],
                   [status, err.lines.last.strip]
    end
  end
end
