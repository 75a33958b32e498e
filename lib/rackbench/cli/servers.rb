# frozen_string_literal: true

require_relative "servers/probe"
require_relative "servers/knob_table"

module Rackbench
  module CLI
    # rackbench servers [--format table|markdown] [--probe [NAMES]]: every server
    # and proxy adapter: installed or not, version, whether it works here (and
    # why not), the knobs it takes. --knobs: every knob of the suite, the
    # servers, proxies and services instead (KnobTable). Without --probe nothing is started: the
    # status comes from each adapter's cheap checks and the cached outcome of
    # the last probe; --probe starts them for real and refreshes that cache.
    class Servers < Command
      HEADERS = ["Kind", "Name", "Installed", "Version", "Knobs", "Status here"].freeze
      Row = Struct.new(:kind, :name, :installed, :version, :status, :knobs, keyword_init: true)

      def initialize(argv, out, err, probe: Probe.new)
        super(argv, out, err)
        @format = "table"
        @probe = probe
        @probe_names = nil
      end

      def call
        OptionParser.new do |o|
          o.banner = "Usage: rackbench servers [--format table|markdown] [--probe [NAME,NAME] | --knobs]"
          o.on("--format FORMAT", %w[table markdown], "table (default) or markdown") { |f| @format = f }
          o.on("--probe [NAMES]", Array, "start each adapter (or only NAMES) with a hello app and cache the outcome") do |names|
            @probe_names = names || []
          end
          o.on("--knobs", "every knob of the suite, servers, proxies and services: what it takes, default, meaning") do
            @knobs = true
          end
        end.parse!(@argv)
        table = @knobs ? KnobTable.new.grid : grid(adapter_rows)
        @out.puts(@format == "markdown" ? table.markdown : table.text)
        0
      end

      private

      def rackbench_servers = Rackbench::Servers.all
      def adapter_rows = rackbench_servers.map { |k| server_row(k) } + Rackbench::Proxies.all.map { |k| proxy_row(k) }

      def probe?(name) = @probe_names && (@probe_names.empty? || @probe_names.include?(name))

      def server_row(klass)
        name = klass.server_name
        reason = safely { klass.unavailable_reason }
        outcome = if reason then nil
                  elsif name == "command" then { "status" => "works", "note" => "runs the command you give it" }
                  elsif probe?(name) then @probe.server(klass)
                  else @probe.outcome("server", klass, name)
                  end
        Row.new(kind: "server", name: name, installed: installed(klass), version: klass.version || "-",
                status: status(reason, outcome), knobs: klass.knobs.join(", "))
      end

      def proxy_row(klass)
        name = klass.proxy_name
        reason = safely { klass.unavailable_reason }
        outcome = if reason then nil
                  elsif probe?(name) then @probe.proxy(klass)
                  else @probe.outcome("proxy", klass, name)
                  end
        knobs = klass.knobs.map { |k| k == "balance" ? "balance (#{klass.balances.join(" / ")})" : k }
        Row.new(kind: "proxy", name: name, installed: installed(klass), version: klass.version || "-",
                status: status(reason, outcome), knobs: knobs.join(", "))
      end

      def installed(klass) = safely { klass.installed? } == true ? "yes" : "no"

      def status(reason, outcome)
        return "fails here: #{reason}" if reason
        return "installed; not probed (rackbench servers --probe)" unless outcome
        return "fails here: #{outcome["reason"]}" if outcome["status"] == "fails"

        return "works (#{outcome["note"]})" unless outcome["probed_at"]

        probed = "probed #{outcome["probed_at"][0, 10]}"
        outcome["flaky"] ? "works only sometimes (#{probed}: #{outcome["flaky"]})" : "works (#{probed})"
      end

      # An adapter whose own checks raise is reported, not fatal to the listing.
      def safely
        yield
      rescue StandardError => e
        "its check raised #{e.class}: #{e.message}"
      end

      # One row per adapter, every column left-aligned (Reports::Grid); the
      # status last, as a failure's reason can be long.
      def grid(rows)
        Reports::Grid.new(HEADERS, rows.map { |r| [r.kind, r.name, r.installed, r.version, r.knobs, r.status] },
                          left: HEADERS.size)
      end
    end
  end
end
