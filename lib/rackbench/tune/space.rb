# frozen_string_literal: true

module Rackbench
  module Tune
    # The configurations tune may try for a server, as suite server entries,
    # and the order of a budgeted search: a coarse grid first, then the
    # untried neighbours of the best so far (#coarse, #neighbours). Each
    # server's adapter says what to try (Servers::Base.tunes) and which
    # configs it takes (.tunable?); its boolean knobs are the switches
    # --vary turns on and off, besides yjit and malloc (jemalloc or not).
    #
    #   Space.new("puma")                                        # workers x threads
    #   Space.new("puma", values: { "threads" => [4, 8] }, vary: %w[yjit preload])
    #   Space.new("puma", vary: %w[malloc yjit])                 # each config with and without jemalloc, YJIT
    class Space
      # The servers whose adapters say what to tune, puma first (tune's default).
      def self.servers = tunable_adapters.map(&:server_name).sort_by { |name| name == "puma" ? "" : name }

      # What --vary takes: yjit, malloc (the system's or jemalloc) and the
      # boolean knobs of the servers tune knows.
      def self.switches
        booleans = tunable_adapters.flat_map { |a| a.knob_schema.values.select { |k| k.types == [:boolean] }.map(&:name) }
        (%w[yjit malloc] + booleans).uniq
      end

      # A switch's two values: off (the entry leaves it out) and on.
      SWITCH_ON = Hash.new(true).merge("malloc" => "jemalloc").freeze

      def self.tunable_adapters = Servers.all.select(&:tune_space)

      attr_reader :server, :knobs

      def initialize(server, values: {}, vary: [])
        @server = server
        unless Space.servers.include?(server)
          raise ConfigError, "tune knows the configs of #{Space.servers.join(", ")}; got --server #{server.inspect}"
        end

        @adapter = Servers.fetch(server)
        base = @adapter.tune_space
        @knobs = base.merge(checked_values(base, values)).merge(switches(vary))
      end

      def grid = combinations(@knobs)

      # A few configs spread over the grid, in the order a budgeted search
      # takes them, by expected payoff: the largest corner first (the most
      # workers and threads: the best on an IO-bound endpoint, and within
      # the search's reach of the best on a CPU-bound one), then the other
      # corners (each knob's smallest and largest), the larger first, then
      # the centre, and the smallest corner last: it is the least likely to
      # win, and its low rates need the longest probes, so a small budget
      # spent on it first (as it once was) tried nothing else.
      def coarse
        corners = combinations(@knobs.transform_values { |values| [values.first, values.last].uniq })
        corners = corners.each_with_index.sort_by { |c, i| [-size_rank(c), i] }.map(&:first)
        centre = entry(@knobs.transform_values { |values| values[values.size / 2] })
        (corners[0...-1] + [centre].select { |c| valid?(c) } + corners.last(1)).uniq
      end

      # Configs one step away from config on one knob.
      def neighbours(config)
        neighbours = @knobs.flat_map do |name, values|
          i = values.index(config.fetch(name, false))
          [i - 1, i + 1].select { |j| j >= 0 && j < values.size }
                        .map { |j| config.merge(name => values[j]).reject { |_, v| v == false } }
        end
        neighbours.select { |c| valid?(c) }
      end

      private

      def combinations(knobs)
        names = knobs.keys
        knobs.values.first.product(*knobs.values.drop(1)).map { |values| entry(names.zip(values).to_h) }.select { |c| valid?(c) }
      end

      def valid?(config) = @adapter.tunable?(config)

      # How far up its knobs' lists a config sits (false and true count as 0 and 1).
      def size_rank(config) = @knobs.sum { |name, values| values.index(config.fetch(name, false)) || 0 }

      def entry(knobs) = { "server" => server }.merge(@adapter.tune_fixed).merge(knobs.reject { |_, v| v == false })

      def checked_values(base, values)
        values.each do |name, list|
          unless base.key?(name)
            raise ConfigError,
                  "--#{name}: #{server} has no #{name} knob to tune (it has #{base.keys.join(", ")})"
          end
          next if whole_numbers?(name, list)

          raise ConfigError, "--#{name}: want a list of whole numbers like 1,2,4, got #{Array(list).join(",").inspect}"
        end
        values.transform_values { |list| list.uniq.sort }
      end

      # Counts within the knob's bounds (puma's workers may be 0: single mode).
      def whole_numbers?(name, list)
        knob = @adapter.knob_schema.fetch(name)
        list.is_a?(Array) && !list.empty? && list.all? { |v| v.is_a?(Integer) && knob.problem(v).nil? }
      end

      def switches(vary)
        vary.to_h do |name|
          unless Space.switches.include?(name)
            raise ConfigError, "--vary: cannot vary #{name.inspect}; it takes #{Space.switches.join(", ")}"
          end

          own = %w[yjit malloc].include?(name) || @adapter.knob_schema[name]&.types == [:boolean]
          raise ConfigError, "--vary: #{server} has no #{name} knob" unless own

          [name, [false, SWITCH_ON[name]]]
        end
      end
    end
  end
end
