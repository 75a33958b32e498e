# frozen_string_literal: true

module Rackbench
  # Expands a Suite into cells: server config x endpoint x concurrency.
  # Cells are grouped by server config, so each server starts once per group.
  #
  # The seed suites shape the matrix further (000_4acd4926cf356a23.txt tests
  # each workload at its own client counts, with workers = clients for sleep):
  #   endpoints: [{path: /sleep/100, concurrency: [100, 250]}]  # this endpoint's levels
  #   servers:
  #     - {server: unicorn, workers: clients, endpoints: [/sleep/100], concurrency: [100]}
  # An entry's endpoints/concurrency keep only those cells; a knob whose value
  # is "clients" takes each cell's concurrency, one server start per level.
  class Plan
    CLIENTS = "clients"

    # rate: the offered open-loop rate of a rate sweep's level (suite or
    # endpoint rates:), else nil.
    Cell = Struct.new(:index, :server_index, :server_config, :endpoint, :concurrency, :rate, keyword_init: true) do
      def server_name = server_config["server"]
      def level = [concurrency, rate]
    end

    Group = Struct.new(:server_index, :server_config, :cells, keyword_init: true)

    attr_reader :suite, :cells

    def initialize(suite)
      @suite = suite
      @cells = []
      suite.server_configs.each_with_index do |config, si|
        endpoints_for(config).each do |endpoint|
          levels = endpoint["concurrency"] || suite["concurrency"]
          levels &= config["concurrency"] if config["concurrency"]
          rates = endpoint["rates"] || suite["rates"] || [nil]
          levels.product(rates).each do |c, rate|
            @cells << Cell.new(index: @cells.size + 1, server_index: si, server_config: self.class.for_clients(config, c),
                               endpoint: endpoint, concurrency: c, rate: rate)
          end
        end
      end
    end

    # The entry with every "clients" knob replaced by the concurrency c.
    def self.for_clients(config, clients)
      config.transform_values { |v| v == CLIENTS ? clients : v }
    end

    def groups
      cells.group_by { |c| [c.server_index, c.server_config] }.map do |(si, config), cells|
        Group.new(server_index: si, server_config: config, cells: cells)
      end
    end

    def size = cells.size

    def endpoints_for(config)
      return suite.endpoints unless config["endpoints"]

      suite.endpoints.select { |e| config["endpoints"].include?(e["path"]) || config["endpoints"].include?(e["name"]) }
    end

    # Seconds of load the plan applies (warm-up included), for the ETA.
    def load_seconds
      per_cell = (suite["duration_s"] || 0) + suite["warmup_s"]
      per_cell * size
    end
  end
end
