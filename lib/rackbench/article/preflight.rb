# frozen_string_literal: true

require_relative "answer"
require_relative "claim"

module Rackbench
  module Article
    # The claims of a seed suite that this machine cannot settle, known before
    # any server starts: too few server CPUs for the article's hardware
    # threads (needs_cpus), a level with no more clients than the compared
    # configs' threads where the article's effect is their queue
    # (needs_queue), a server or proxy that is not installed (with
    # what installs it), the article's level scaled away, a warm-up claim on
    # an engine without a per-second series. `rackbench run` prints them first.
    #
    #   Preflight.new(suite).answers   # => [Answer(outcome: :cannot_show_here, reason: :too_few_cpus, ...)]
    class Preflight
      def initialize(suite, server_cpus: nil)
        @suite = suite
        @server_cpus = server_cpus || self.class.server_cpus(suite)
      end

      # The CPUs the server will get: its pinned set, else every core.
      def self.server_cpus(suite)
        pinning = Pinning.choose(enabled: suite["pin"])
        pinning.enabled? ? pinning.server_cpus.size : Pinning.available_cpus.size
      end

      def answers
        (@suite["article"]&.dig("claims") || []).filter_map do |spec|
          claim = Claim.new(spec, [], scaled: @suite["scaled"], server_cpus: @server_cpus)
          why(claim)&.for(claim.says, claim.kind)
        end
      end

      private

      def why(claim)
        if claim.too_few_cpus?
          cannot(:too_few_cpus, needs_cpus: claim.needs_cpus, had_cpus: @server_cpus)
        elsif claim.too_few_clients?
          cannot(:too_few_clients, **claim.queue_facts)
        elsif (missing = missing_servers(claim.spec)).any?
          cannot(:not_installed, missing: missing)
        elsif claim.kind == "fails" && claim.scaled_away.any?
          cannot(:scaled_away, scaled: claim.scaled_away)
        elsif claim.kind == "warms_up" && @suite["engine"] != "native"
          cannot(:no_series, engine: @suite["engine"], a: { "label" => claim.spec.dig("a", "server") })
        end
      end

      def cannot(reason, **facts) = Answer.new(outcome: :cannot_show_here, reason: reason, facts: facts.transform_keys(&:to_s))

      # {"passenger" => "gem passenger is not installed (bin/setup passenger installs it)"} for a and b.
      def missing_servers(spec)
        %w[a b].filter_map { |side| spec.dig(side, "server") }.uniq.to_h do |name|
          [name, Servers.fetch(name).unavailable_reason]
        end.compact
      end
    end
  end
end
