# frozen_string_literal: true

module Rackbench
  module CLI
    # Command-line overrides of a suite's settings, defined once for every
    # command that runs a suite (run, ab). Each option writes its setting's
    # name into `overrides`, which Suite.load applies over the file (command
    # line > suite file > defaults).
    #
    #   SuiteSettings.load(parser, overrides)        # --duration --warmup --concurrency --smoke --pin
    #   SuiteSettings.statistics(parser, overrides)  # --repeats --deployments --windows --max-deployments
    #                                                # --precision --margin --duet --budget (RepeatPolicy, Comparison)
    module SuiteSettings
      module_function

      def load(parser, overrides)
        parser.on("--duration SECONDS", Float, "measured seconds per window") { |d| overrides["duration_s"] = d }
        parser.on("--warmup SECONDS", Float, "warm-up seconds per server start") { |d| overrides["warmup_s"] = d }
        parser.on("--concurrency LIST", Array, "concurrency levels, e.g. 1,10,100") do |list|
          overrides["concurrency"] = list.map { |c| Integer(c) }
        end
        parser.on("--smoke", "the suite's smoke settings: very short, for plumbing checks (no verdict worth keeping)") do
          overrides["smoke"] = true
        end
        parser.on("--[no-]pin", "pin server and load generator to disjoint CPUs (default on)") { |p| overrides["pin"] = p }
      end

      def statistics(parser, overrides)
        parser.on("--repeats N", "windows per cell: a number, or auto (default: server starts until the interval " \
                                 "is within --precision)") { |n| overrides["repeats"] = n == "auto" ? n : Integer(n) }
        parser.on("--deployments N", Integer, "server starts before the first look#{default("deployments")}") do |n|
          overrides["deployments"] = n
        end
        parser.on("--windows N", Integer, "windows per server start#{default("windows")}") { |n| overrides["windows"] = n }
        parser.on("--max-deployments N", Integer, "cap of server starts per cell#{default("max_deployments")}") do |n|
          overrides["max_deployments"] = n
        end
        parser.on("--precision SHARE", Float, "target half-width of the throughput interval#{default("precision")}") do |p|
          overrides["precision"] = p
        end
        parser.on("--margin SHARE", Float, "configs within ±margin are 'equivalent'#{default("margin")}") do |m|
          overrides["margin"] = m
        end
        parser.on("--[no-]duet", "load the configs of a round at one instant on the same CPUs with equal CPU " \
                                 "shares, so other processes hit both alike (default off; README: How rackbench decides)") do |d|
          overrides["duet"] = d
        end
        parser.on("--ratio HOW", %w[turns duet], "a block's throughput ratio from the windows in turns, or from " \
                                                 "a ratio window a start loaded as a duet#{default("ratio")}") do |r|
          overrides["ratio"] = r
        end
        parser.on("--budget TIME", "wall time to spend, e.g. 20m, 90s or 1h: starts go to the comparisons still " \
                                   "open until it is spent") { |t| overrides["budget_s"] = wall_seconds(t, "--budget") }
      end

      # " (default 20)": the suite key's default (Suite::KEYS), which a suite without the key gets.
      def default(key) = " (default #{Suite::KEYS.fetch(key).default})"

      # "20m", "90s", "1h" or plain seconds, as seconds; ConfigError naming the option otherwise.
      def wall_seconds(text, option)
        m = text.to_s.strip.match(/\A(\d+(?:\.\d+)?)\s*(s|m|h)?\z/) or
          raise ConfigError, "#{option}: cannot read #{text.inspect}; write e.g. 90s, 20m or 1h"
        value = m[1].to_f * { nil => 1, "s" => 1, "m" => 60, "h" => 3600 }.fetch(m[2])
        raise ConfigError, "#{option} must be more than 0, got #{text.inspect}" unless value.positive?

        value
      end
    end
  end
end
