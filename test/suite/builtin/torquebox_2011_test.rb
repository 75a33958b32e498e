# frozen_string_literal: true

require "test_helper"
require "cgi"
require "rackbench/charts/frame"
require_relative "seed_smoke"

module Rackbench
  class Torquebox2011SuiteTest < Minitest::Test
    include SeedSmoke

    # Two JVM servers, a start per client count: 527 s in a whole-suite run at load 7-12, past 600 s at
    # load 20 (TorqueBox and Trinidad ready after 85-100 s each at load 11-14, before the smoke started
    # them in JRuby's quick start). A hang guard, not a target.
    def time_limit_s = [TestDeadline::TEST_TIMEOUT_S, 1200].max

    def test_the_smoke_run_has_every_server_as_a_row_a_timeline_per_test_and_the_articles_claims_checked
      out, _run, cells, charts = smoke_run("torquebox-2011")
      assert_rows_for_every_server("torquebox-2011", out, cells)
      assert_equal %w[hello sleep fibonacci].sort, cells.map { |c| c["endpoint"] }.uniq.sort
      assert_equal servers_apps_and_endpoints(Plan.new(Suite.load("torquebox-2011")).cells.map { |c| c.key.columns }),
                   servers_apps_and_endpoints(cells), "the smoke's own list of servers (fewer starts) keeps the suite's"
      assert(cells.any? { |c| c["config"]["app"] == "rails" && c["status"] == "ok" }, "no Rails cell was measured")
      measured = cells.select { |c| c["status"] == "ok" }
      assert(measured.all? { |c| c.repeats.first.result.series.size >= 2 }, "a cell kept no series")
      assert_charts_drawn(charts, at_least: 6, named: [/timeline/, /requests-per-s/])
      assert_timelines_for_every_graph(cells, charts)
      assert_match "Smoke run (--smoke): duration_s 60 -> 1.5", out
      assert_verdicts(out, 14)
      assert_unavailable_server_kept_with_its_reason("torquebox", cells, out)
      assert_serves_every_cell("trinidad", cells)
      assert_serves_every_cell("torquebox", cells) unless Servers.fetch("torquebox").unavailable_reason
      assert_serves_every_cell("itsi", cells)
      assert_jvms_quick_started(cells, out)
    end

    # The smoke starts TorqueBox and Trinidad in JRuby's quick start (its
    # flags after jruby in their recorded commands, +quick-start in their labels) and
    # says so in the run's output; the MRI servers start as ever.
    def assert_jvms_quick_started(cells, out)
      flags = Servers::JRubyBase::QUICK_START
      jvms, others = cells.select { |c| c["server_command"] }.partition { |c| %w[torquebox trinidad].include?(c["server"]) }
      refute_empty jvms, "no JVM cell recorded its command"
      jvms.each do |c|
        command = c["server_command"].first
        at = command.index { |w| File.basename(w) == "jruby" }
        assert at, command.inspect
        assert_equal [flags, true], [command[at + 1, flags.size], c["label"].include?("+quick-start")], command.inspect
      end
      others.each { |c| assert_empty flags & c["server_command"].flatten, c["label"] }
      assert_includes out.gsub(/\s+/, " "), Suite.load("torquebox-2011")["smoke"]["note"]
    end

    # Each server with each app and endpoint it serves in the suite: its
    # cells as stored, or planned (their CellKey#columns).
    def servers_apps_and_endpoints(cells)
      cells.map { |c| [c["server"], c["config"]["app"] || "rack", c["endpoint"]] }.uniq.sort
    end

    # Trinidad and TorqueBox (JRuby) and Itsi, today's server beside Puma,
    # measure their five cells (Rack hello x2, Rack sleep, Rails hello and
    # fibonacci) without an error.
    def assert_serves_every_cell(name, cells)
      mine = cells.select { |c| c["server"] == name }
      assert_equal 5, mine.size, mine.map { |c| [c["endpoint"], c["concurrency"]] }.inspect
      assert_equal 2, mine.count { |c| c["config"]["app"] == "rails" }, "#{name} has two Rails cells"
      mine.each { |c| assert_equal ["ok", 0], [c["status"], c.errors], "#{name} #{c["endpoint"]}: #{c["reason"]}" }
    end

    # The article's graphs are req/s over time, one per test and client count:
    # each measured one gets a req/s and a p99 timeline, a line per server.
    def assert_timelines_for_every_graph(cells, charts)
      return if Charts::Renderer.unavailable_reason

      svgs = charts.to_h { |c| [File.basename(c, ".svg"), c] }
      measured = cells.select { |c| c["status"] == "ok" }
      graphs = measured.group_by { |c| [c["config"]["app"] || "rack", c["endpoint"], c["concurrency"]] }
      assert_operator graphs.size, :>=, 5
      graphs.each do |(app, endpoint, concurrency), servers|
        slug = Charts::Frame.slug("#{app} #{endpoint} at concurrency #{concurrency}")
        assert svgs["#{slug}-timeline-p99"], "no p99 timeline for #{slug}"
        svg = File.read(svgs.fetch("#{slug}-timeline"))
        servers.each { |c| assert_includes svg, CGI.escapeHTML(c["label"]), "#{slug}: no line for #{c["label"]}" }
      end
    end

    # Where TorqueBox cannot run (no jruby, or its gems or their rename
    # missing), its five cells stay, failed with the adapter's reason.
    def assert_unavailable_server_kept_with_its_reason(name, cells, out)
      reason = Servers.fetch(name).unavailable_reason
      return unless reason

      mine = cells.select { |c| c["server"] == name }
      assert_equal 5, mine.size, mine.map { |c| [c["endpoint"], c["concurrency"]] }.inspect
      mine.each { |c| assert_equal ["failed", true], [c["status"], c["reason"].include?(reason)], c["reason"] }
      assert_includes out, "TorqueBox leads the pack on Rack hello world at 100 clients: cannot show here, " \
                           "not measured: torquebox (reason above)"
    end
  end
end
