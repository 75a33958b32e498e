# frozen_string_literal: true

module Rackbench
  module Tune
    # `rates: auto` in a suite: a rate sweep whose offered rates are found by
    # measurement. Before the run, tune's search (Tuner, every server config of
    # the suite as its grid) finds each config's knee under the suite's slo:
    # on each endpoint: it grows the offered rate from half a closed-loop
    # estimate until the latency bound or the error bound breaks, bisects,
    # and confirms the knee on a fresh deployment, three times over (the
    # suite's searches:; each search on its own deployments), which gives
    # the knee an interval. The sweep's rates are then
    # the same for every config, so they are compared at the same offered
    # rate: LEVELS rates spaced geometrically from LOW x the lowest knee to
    # HIGH x the highest, and the knees themselves. Created by CLI::Run.
    #
    #   auto = AutoRates.new(suite, store: store, supervisor: supervisor, out: $stdout)
    #   suite = auto.resolve    # the suite with rates: [...] (per endpoint; the suite's with a mix)
    #   auto.to_h               # {"slo", "knees" => [{"endpoint", "config", "rate", "interval", "tune_run"}], "rates"}
    #
    # Each search is stored as a tune run of its own (its probes, its answer).
    class AutoRates
      LEVELS = 6
      LOW = 0.5
      HIGH = 1.5
      # A rate of the geometric spacing closer than this share to a knee (or another rate) is left out.
      CLOSE = 0.1

      def self.wanted?(suite) = suite["rates"] == "auto"

      def initialize(suite, store:, supervisor:, out: nil)
        @suite = suite
        @slo = Slo.parse(suite["slo"])
        @store = store
        @supervisor = supervisor
        @out = out
        @knees = []
        @rates = {}
      end

      def resolve
        raise ConfigError, "rates: auto cannot start a suite's services: list the rates" unless Array(@suite["services"]).empty?

        workloads.each do |name, workload|
          knees = search(name, workload)
          @rates[name] = self.class.levels(knees.map { |k| k["rate"] })
          @out&.puts "rates: auto for #{name}: #{@rates[name].map { |r| format("%g", r) }.join(", ")} req/s"
        end
        resolved
      end

      def to_h = { "slo" => @slo.to_s, "knees" => @knees, "rates" => @rates }

      # The sweep's rates from the knees found: geometric from LOW x the
      # lowest to HIGH x the highest, the knees among them, 3 significant digits.
      def self.levels(knees)
        low = knees.min * LOW
        high = knees.max * HIGH
        step = (high / low)**(1.0 / (LEVELS - 1))
        spaced = Array.new(LEVELS) { |i| significant(low * (step**i)) }
        spaced.each_with_object(knees.map { |k| significant(k) }.uniq) do |rate, kept|
          kept << rate unless kept.any? { |k| (rate - k).abs <= CLOSE * k }
        end.sort
      end

      def self.significant(rate) = rate.round(2 - Math.log10(rate).floor).then { |r| r == r.round ? r.round : r.to_f }

      private

      # {name => Tuner workload}: each plain endpoint, or the suite's mix as one traffic.
      def workloads
        return { Traffic::MIX_NAME => @suite.data.slice("endpoints", "mix") } if @suite["mix"]

        @suite.endpoints.to_h { |e| [e["path"], { "endpoints" => [@suite.data["endpoints"].find { |x| same?(x, e) }] }] }
      end

      def same?(entry, endpoint) = entry.is_a?(String) ? entry == endpoint["path"] : entry["path"] == endpoint["path"]

      def search(name, workload)
        @out&.puts "rates: auto: the knee of each config on #{name} under #{@slo}"
        tuner = Tuner.new(app: @suite["app"], workload: workload, space: FixedSpace.new(@suite.server_configs), slo: @slo,
                          store: @store, supervisor: @supervisor, budget_s: 0, grid: true, searches: @suite["searches"],
                          probe_s: @suite["probe_s"], out: @out).run
        knees = tuner.outcomes.select(&:rate).map do |o|
          { "endpoint" => name, "config" => o.label, "rate" => o.rate, "interval" => o.ci&.to_a&.first(2),
            "searches" => o.searches, "tune_run" => tuner.run_id }
        end
        @knees.concat(knees)
        return knees unless knees.empty?

        raise ServiceError, "rates: auto: no config met #{@slo} at any rate on #{name} (tune run #{tuner.run_id}): " \
                            "loosen slo: or list the rates"
      end

      # The suite with the rates found: per endpoint, or the suite's with a mix.
      def resolved
        data = @suite.data.slice(*Suite::KEYS.keys)
        if @suite["mix"]
          data["rates"] = @rates.values.first
        else
          data.delete("rates")
          data["endpoints"] = data["endpoints"].map do |e|
            entry = e.is_a?(String) ? { "path" => e } : e
            entry.merge("rates" => @rates.fetch(entry["path"]))
          end
        end
        Suite.new(data.to_yaml, path: @suite.path).tap { |s| s.data.merge!(@suite.data.except(*Suite::KEYS.keys)) }
      end

      # The suite's server configs as tune's grid: each tried as it is (a
      # fresh list each time: the Tuner takes its queue from it).
      FixedSpace = Struct.new(:configs) do
        def grid = configs.map(&:dup)
        def server = configs.map { |c| c["server"] }.uniq.join(", ")
        def knobs = {}
      end
    end
  end
end
