# frozen_string_literal: true

require "tmpdir"

module Rackbench
  module CLI
    # rackbench servers [--format table|markdown]: every adapter, whether it can
    # run here (and why not), its version, knobs and the command it would run.
    class Servers
      def initialize(argv, out, _err)
        @argv = argv
        @out = out
        @format = "table"
      end

      def call
        OptionParser.new do |o|
          o.banner = "Usage: rackbench servers [--format table|markdown]"
          o.on("--format FORMAT", %w[table markdown]) { |f| @format = f }
        end.parse!(@argv)
        rows = Rackbench::Servers.all.map { |k| row(k) }
        @out.puts(@format == "markdown" ? markdown(rows) : table(rows))
        0
      end

      private

      def row(klass)
        reason = klass.unavailable_reason
        { "name" => klass.server_name, "version" => klass.version || "-",
          "status" => reason ? "unavailable: #{reason}" : "installed",
          "knobs" => klass.knobs.join(", "), "command" => reason ? nil : example_command(klass) }
      rescue StandardError => e
        { "name" => klass.server_name, "version" => klass.version || "-", "status" => "fails: #{e.message}",
          "knobs" => klass.knobs.join(", "), "command" => nil }
      end

      # The argv the adapter would run for its default config on port 9292.
      def example_command(klass)
        Dir.mktmpdir do |dir|
          server = klass.new("server" => klass.server_name, "port" => 9292)
          server.command(app: "config.ru", bind: server.bind(dir), dir: dir).join(" ")
        end
      end

      def table(rows)
        rows.map do |r|
          format("%-12s %-10s %s\n  knobs: %s\n  command: %s", r["name"], r["version"], r["status"],
                 r["knobs"].empty? ? "-" : r["knobs"], r["command"] || "-")
        end.join("\n")
      end

      def markdown(rows)
        "| Server | Version | Status | Knobs |\n| :--- | :--- | :--- | :--- |\n" +
          rows.map { |r| "| #{r["name"]} | #{r["version"]} | #{r["status"]} | #{r["knobs"]} |" }.join("\n")
      end
    end
  end
end
