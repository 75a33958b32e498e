# frozen_string_literal: true

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

      # bench/tune's lines as it printed them; command: how it was run.
      def bench_tune(dir, command = "bundle exec bench/tune")
        path = File.join(dir, "bench-tune.txt")
        raise "no #{path}: run `#{command}` first" unless File.exist?(path)

        "`#{command}` printed:\n\n```text\n#{File.read(path).strip}\n```"
      end
    end
  end
end
