# frozen_string_literal: true

require_relative "figures"
require_relative "answer"
require_relative "claim_cells"
require_relative "checks"

module Rackbench
  module Article
    # One finding of a seed article, checked against a stored run. Created by
    # Summary (the seed report formats) from the suite's `article: claims:` list:
    #
    #   - says: Puma x4:10 beats Unicorn x4 on /sleep at concurrency 50
    #     kind: beats              # beats | ties | leads | trails | no_errors | errs | warms_up | fails
    #     factor: [1.6, 2.5]       # beats: "about twice as fast" (the interval must reach the band)
    #     margin: 0.05             # ties: equivalent within ±margin (default: the run's margin:, else 5 %)
    #     share: 0.5               # errs: more than this share of a's requests failed
    #     metric: requests_per_s   # any Figures::METRICS name (default good_requests_per_s)
    #     a: {server: puma, workers: 4, threads: 10}   # matched against each cell's config
    #     b: {server: unicorn, workers: 4}
    #     rivals: [{server: thin}, {server: unicorn}]  # leads/trails: only these (default: every config there)
    #     endpoint: /sleep/2000
    #     concurrency: 50          # default: the highest level measured for the endpoint
    #     needs_cpus: 8            # the article's hardware threads decide it (003: x8 against x4)
    #     needs_queue: true        # the article's effect is how a and b queue clients beyond their threads
    #                              # (003: x4:10 against x8:5, 40 threads each, at 50 clients)
    #
    # Knob values and concurrency are written as in the article; when the run
    # was scaled (--scale, --smoke) they are mapped the same way its suite was.
    # The answer is an Answer (data): decided by an interval (of a Comparison,
    # or over server starts), never by a point estimate. A claim that needs
    # more server CPUs than the run's server had answers "cannot show here"
    # whatever the interval (kept in the answer): on fewer CPUs the compared
    # configurations end up alike by construction. Likewise a needs_queue
    # claim at a level (as scaled) no higher than a's or b's threads (workers
    # x threads): every client is served at once, no queue forms.
    class Claim
      include ClaimCells

      attr_reader :spec, :cells, :server_cpus, :run_margin

      def initialize(spec, cells, scaled: nil, server_cpus: nil, margin: nil)
        @spec = spec
        @cells = cells
        @server_cpus = server_cpus
        @run_margin = margin
        @mapping = mapping_from(scaled)
        Figures::METRICS.fetch(metric) { raise ConfigError, "claim #{says.inspect}: unknown metric #{metric.inspect}" }
        raise ConfigError, "claim #{says.inspect}: kind must be one of #{Checks.names.join(", ")}" unless Checks.known?(kind)
      end

      def says = spec["says"].to_s
      def kind = spec.fetch("kind", "beats")
      def metric = spec.fetch("metric", "good_requests_per_s")
      def needs_cpus = spec["needs_cpus"]

      def answer
        found = Checks.fetch(kind).new(self).answer
        found = too_few_cpus(found) if too_few_cpus?
        found = found.overruled(:cannot_show_here, :too_few_clients, **queue_facts) if too_few_clients?
        found.for(says, kind)
      end

      def too_few_cpus? = needs_cpus && server_cpus && server_cpus < needs_cpus

      # needs_queue, and the claim's level (as the run scaled it) is no more
      # than the threads of a or b: nobody waits for a thread here.
      def too_few_clients?
        threads = side_threads(scaled: true).values
        spec["needs_queue"] && concurrency && !threads.empty? && concurrency <= threads.max
      end

      # What the article had and this run has: clients, and each side's threads.
      def queue_facts
        { clients: concurrency, threads: side_threads(scaled: true),
          article_clients: spec["concurrency"], article_threads: side_threads(scaled: false) }
      end

      private

      # The figures stay beside the answer, which the CPUs decide (cells
      # left out of a run scaled for this machine are not measured at all).
      # {"a" => threads, "b" => threads}: workers (1 without) x threads (1 without: a process a request).
      def side_threads(scaled:)
        %w[a b].select { |side| spec[side] }.to_h do |side|
          match = scaled ? scaled_match(spec[side]) : spec[side]
          [side, [match.fetch("workers", 1), match.fetch("threads", 1)].map { |n| n.is_a?(Integer) ? n : 1 }.reduce(:*)]
        end
      end

      def too_few_cpus(found) = found.overruled(:cannot_show_here, :too_few_cpus, needs_cpus: needs_cpus, had_cpus: server_cpus)
    end
  end
end
