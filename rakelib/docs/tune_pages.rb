# frozen_string_literal: true

require "csv"
require "json"

module Rackbench
  module Docs
    # What doc/tune.md shows of stored runs and bench output (rakelib/docs_tune.rake).
    module TunePages
      module_function

      # The rate sweep's curves of a rate-auto run, as `rackbench report` prints them.
      def rate_auto(run, dir)
        report = `bin/rackbench report #{run["id"]} --results #{dir}`
        raise "bin/rackbench report failed" unless $?.success? # rubocop:disable Style/SpecialGlobalVars

        curves = report.split(/\n{2,}/).select { |block| block.start_with?("Latency against offered rate", "Knee at") }
        raise "run #{run["id"]} in #{dir} has no rate sweep" if curves.empty?

        auto = run.dig("settings", "auto_rates") || {}
        <<~MD
          `bin/rackbench run rate-auto --results #{dir}` on a #{run.dig("machine", "cores")}-core machine shared with
          other work (load average #{Array(run.dig("machine", "loadavg")).join(" ")} when it started): the knees found
          under `#{auto["slo"]}`, then the rates #{Array(auto["rates"]&.values&.first).join(", ")} req/s for every
          config. What `bin/rackbench report #{run["id"]} --results #{dir}` prints of its curves:

          ```text
          #{curves.join("\n\n").strip}
          ```
        MD
      end

      # The same run in the json and csv reports: the first curve's first row
      # of `rate_sweeps`, and that config's cells in a few csv columns.
      def rate_auto_formats(run, dir)
        command = "bin/rackbench report #{run["id"]} --results #{dir}"
        sweep = JSON.parse(report_output("#{command} --format json")).fetch("rate_sweeps").first
        columns = %w[endpoint server offered_rate_per_s requests_per_s latency_p50_ms latency_p99_ms]
        rows = CSV.parse(report_output("#{command} --format csv").split("\n\n").first, headers: true) # the cells
                  .select { |row| row["server"].start_with?("#{sweep["config"]} @") }
        <<~MD
          `#{command} --format json`, the first row of `rate_sweeps` (#{sweep["config"]}, #{sweep["endpoint"]}):

          ```json
          #{JSON.generate(sweep.fetch("rows").first)}
          ```

          and `#{command} --format csv`, its #{columns.join(", ")} columns for #{sweep["config"]} (a figure
          is empty, null in json, where the table says "too few": fewer than 10 requests beyond it):

          ```csv
          #{columns.join(",")}
          #{rows.map { |row| row.values_at(*columns).join(",") }.join("\n")}
          ```
        MD
      end

      def report_output(command)
        output = `#{command}`
        raise "#{command} failed" unless $?.success? # rubocop:disable Style/SpecialGlobalVars

        output
      end

      # bench/tune's lines as it printed them; command: how it was run.
      def bench_tune(dir, command = "bundle exec bench/tune")
        path = File.join(dir, "bench-tune.txt")
        raise "no #{path}: run `#{command}` first" unless File.exist?(path)

        "`#{command}` printed:\n\n```text\n#{File.read(path).strip}\n```"
      end
    end
  end
end
