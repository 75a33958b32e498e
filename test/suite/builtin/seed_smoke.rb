# frozen_string_literal: true

require "open3"
require "rackbench/article/summary"
require "rackbench/reports/parts/claim_text"
require "rackbench/charts/renderer"
require "rackbench/reports/parts/full_label"

module Rackbench
  # Runs a built-in seed suite with --smoke through bin/rackbench, as a user
  # would, and checks what the article report and the charts must hold.
  module SeedSmoke
    BIN = File.join(ROOT, "bin", "rackbench")

    # A whole seed suite, JVM starts included, on a busy machine: 3 min 10 s
    # for torquebox-2011 --smoke measured with the test suite running beside it.
    def time_limit_s = [TestDeadline::TEST_TIMEOUT_S, 600].max

    # Runs the suite; returns [stdout, run row, measurements, chart paths].
    def smoke_run(suite)
      out, err, status = Open3.capture3(BIN, "run", suite, "--smoke", "--results", tmpdir)
      assert_nothing_left(status.pid)
      assert File.exist?(File.join(tmpdir, Store::FILE)), "rackbench run #{suite} --smoke stored nothing:\n#{out}\n#{err}"
      store = Store.new(tmpdir)
      run = store.run
      cells = store.measurements(run["id"])
      store.close
      # 0 when every cell was measured, 3 when one failed (TorqueBox on this Java: its reason is in the report).
      assert_equal cells.all?(&:ok?) ? 0 : 3, status.exitstatus, "rackbench run #{suite} --smoke:\n#{out}\n#{err}"
      @smoke = [run, cells]
      [out, run, cells, Dir[File.join(run["dir"], "charts", "*.svg")]]
    end

    # Every server entry of the suite has its cells, measured or failed with a
    # reason, and its label is a row of the printed tables.
    def assert_rows_for_every_server(suite_name, out, cells)
      suite = Suite.load(suite_name, overrides: { "smoke" => true })
      Plan.new(suite).groups.each do |group|
        label = Servers.fetch(group.server_config["server"]).new(group.server_config).label
        mine = cells.select { |c| c["label"] == label }
        refute_empty mine, "no cells for #{label}"
        mine.each do |c|
          if c["status"] == "ok"
            assert_operator c["requests_per_s"], :>, 0, "#{label} #{c["endpoint"]} measured nothing"
          else
            refute_empty c["reason"].to_s, "#{label} #{c["endpoint"]} failed without a reason"
          end
        end
        # The article formats name a config in full ("trinidad, 1 worker"), the table by its label.
        names = [label, Reports::FullLabel.for(mine.first)].uniq.map { |n| Regexp.escape(n) }.join("|")
        assert_match(/^\| (#{names}) \||^--- (#{names}) ---|^\| (#{names})\s/, out, "no row for #{label}")
      end
      assert(cells.any? { |c| c["status"] == "ok" }, "no cell of #{suite_name} was measured")
    end

    def assert_charts_drawn(charts, at_least:, named: [])
      assert_nil Charts::Renderer.unavailable_reason, "bin/setup installs the chart library"
      assert_operator charts.size, :>=, at_least, "charts: #{charts.map { |c| File.basename(c) }}"
      named.each { |re| assert(charts.any? { |c| File.basename(c).match?(re) }, "no chart named like #{re}") }
      charts.each do |path|
        svg = File.read(path)
        assert svg.start_with?("<svg"), "#{path} is not an SVG"
        assert_match(/class="mark-(line|rect|symbol)[^"]*role-mark[^>]*>\s*<path/, svg, "#{File.basename(path)} has no marks")
      end
    end

    # Each claim's printed answer is the one the stored run's figures support
    # (the claims' logic on known figures is test/reports/claim_test.rb's).
    def assert_verdicts(out, count)
      section = out[/^This run against the article:\n((?:- .*\n)+)/, 1].to_s
      assert_equal count, section.lines.size, "verdicts:\n#{section}"
      run, cells = @smoke
      expected = Article::Summary.new(run, cells).answers.map { |a| "- #{a.says}: #{Reports::ClaimText.new(a).word}, " }
      expected.zip(section.lines).each do |answer, line|
        assert line.start_with?(answer), "expected #{answer}..., printed #{line}"
      end
    end
  end
end
