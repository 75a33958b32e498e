# frozen_string_literal: true

module Rackbench
  module Tune
    # The configurations tune may try for a server, as suite server entries,
    # and the order of a budgeted search: a coarse grid first, then the
    # untried neighbours of the best so far (SPACES, #coarse, #neighbours).
    #
    #   Space.new("puma")                                        # workers x threads
    #   Space.new("puma", values: { "threads" => [4, 8] }, vary: %w[yjit preload])
    class Space
      # server => {knob => values}; workers 0 is puma's single mode. Falcon
      # runs its hybrid model (forked reactors x threads); Passenger's open
      # source edition has processes only.
      SPACES = {
        "puma" => { "workers" => [0, 1, 2, 4], "threads" => [1, 2, 4, 8, 16] },
        "unicorn" => { "workers" => [1, 2, 4, 8] },
        "pitchfork" => { "workers" => [1, 2, 4, 8] },
        "falcon" => { "workers" => [1, 2, 4], "threads" => [1, 2, 4, 8] },
        "iodine" => { "workers" => [1, 2, 4], "threads" => [1, 2, 4, 8, 16] },
        "agoo" => { "workers" => [1, 2, 4], "threads" => [1, 2, 4, 8, 16] },
        "passenger" => { "workers" => [1, 2, 4, 8] }
      }.freeze
      FIXED = { "falcon" => { "model" => "hybrid" } }.freeze
      # On/off knobs --vary adds, and the servers that take them.
      SWITCHES = { "yjit" => :all, "preload" => %w[puma unicorn], "fork_worker" => %w[puma] }.freeze

      attr_reader :server, :knobs

      def initialize(server, values: {}, vary: [])
        @server = server
        base = SPACES.fetch(server) do
          raise ConfigError, "tune knows the configs of #{SPACES.keys.join(", ")}; got --server #{server.inspect}"
        end
        @knobs = base.merge(checked_values(base, values)).merge(switches(vary))
      end

      def grid = combinations(@knobs)

      # A few configs spread over the grid: its corners (each knob's smallest
      # and largest) and its centre, where a budgeted search starts.
      def coarse
        corners = combinations(@knobs.transform_values { |values| [values.first, values.last].uniq })
        centre = entry(@knobs.transform_values { |values| values[values.size / 2] })
        (corners + [centre].select { |c| valid?(c) }).uniq
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

      # puma's preload and fork_worker need cluster mode.
      def valid?(config)
        !(config["workers"].to_i.zero? && (config["preload"] || config["fork_worker"]))
      end

      def entry(knobs) = { "server" => server }.merge(FIXED.fetch(server, {})).merge(knobs.reject { |_, v| v == false })

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

      # Puma's workers may be 0 (single mode); every other count starts at 1.
      def whole_numbers?(name, list)
        least = name == "workers" && server == "puma" ? 0 : 1
        list.is_a?(Array) && !list.empty? && list.all? { |v| v.is_a?(Integer) && v >= least }
      end

      def switches(vary)
        vary.to_h do |name|
          servers = SWITCHES.fetch(name) do
            raise ConfigError, "--vary: cannot vary #{name.inspect}; it takes #{SWITCHES.keys.join(", ")}"
          end
          raise ConfigError, "--vary: #{server} has no #{name} knob" unless servers == :all || servers.include?(server)

          [name, [false, true]]
        end
      end
    end
  end
end
