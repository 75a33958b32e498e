# frozen_string_literal: true

module Rackbench
  module Tune
    # The configurations tune may try for a server, as suite server entries,
    # and the order of a budgeted search: a coarse grid first, then the
    # untried neighbours of the best so far (SPACES, #coarse, #neighbours).
    class Space
      # server => {knob => values}; workers 0 is puma's single mode.
      SPACES = {
        "puma" => { "workers" => [0, 1, 2, 4], "threads" => [1, 2, 4, 8, 16] },
        "unicorn" => { "workers" => [1, 2, 4, 8] },
        "pitchfork" => { "workers" => [1, 2, 4, 8] }
      }.freeze
      COARSE = { "workers" => [0, 2, 8], "threads" => [1, 4, 16] }.freeze

      attr_reader :server

      def initialize(server)
        @server = server
        @knobs = SPACES.fetch(server) do
          raise ConfigError, "tune knows the configs of #{SPACES.keys.join(", ")}; got --server #{server.inspect}"
        end
      end

      def grid
        names = @knobs.keys
        @knobs.values.first.product(*@knobs.values.drop(1)).map { |values| entry(names.zip(values).to_h) }
      end

      # A few configs spread over the grid: each knob's smallest, middle and largest.
      def coarse
        names = @knobs.keys
        picks = @knobs.map { |name, values| (COARSE[name] & values).then { |c| c.empty? ? [values.first, values.last] : c } }
        picks.first.product(*picks.drop(1)).map { |values| entry(names.zip(values).to_h) }
      end

      # Configs one step away from config on one knob.
      def neighbours(config)
        @knobs.flat_map do |name, values|
          i = values.index(config[name])
          [i - 1, i + 1].select { |j| j >= 0 && j < values.size }.map { |j| config.merge(name => values[j]) }
        end
      end

      private

      def entry(knobs) = { "server" => server }.merge(knobs)
    end
  end
end
