# frozen_string_literal: true

module Rackbench
  # Expands a Suite into cells: server config x endpoint x concurrency.
  # Cells are grouped by server config, so each server starts once per group.
  class Plan
    Cell = Struct.new(:index, :server_index, :server_config, :endpoint, :concurrency, keyword_init: true) do
      def server_name = server_config["server"]
    end

    Group = Struct.new(:server_index, :server_config, :cells, keyword_init: true)

    attr_reader :suite, :cells

    def initialize(suite)
      @suite = suite
      @cells = []
      suite.server_configs.each_with_index do |config, si|
        suite.endpoints.each do |endpoint|
          suite["concurrency"].each do |c|
            @cells << Cell.new(index: @cells.size + 1, server_index: si, server_config: config,
                               endpoint: endpoint, concurrency: c)
          end
        end
      end
    end

    def groups
      cells.group_by(&:server_index).map do |si, cells|
        Group.new(server_index: si, server_config: cells.first.server_config, cells: cells)
      end
    end

    def size = cells.size

    # Seconds of load the plan applies (warm-up included), for the ETA.
    def load_seconds
      per_cell = (suite["duration_s"] || 0) + suite["warmup_s"]
      per_cell * size
    end
  end
end
