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
    # endpoint rates:), else nil. key: the cell's CellKey (its identity as
    # stored; its label).
    Cell = Struct.new(:index, :server_index, :server_config, :endpoint, :concurrency, :rate, :key, keyword_init: true) do
      def server_name = server_config["server"]
      def level = [concurrency, rate]

      # Open loop's arrivals: the suite's (chosen), or (auto) Poisson in a rate sweep.
      def arrivals(chosen)
        if chosen.nil? || chosen == "auto"
          rate ? "poisson" : "uniform"
        else
          chosen
        end
      end

      def label = key.label
    end

    Group = Struct.new(:server_index, :server_config, :cells, keyword_init: true)

    attr_reader :suite, :cells

    # cells: the cells as a run stored them (see .stored); else the suite's, planned.
    def initialize(suite, cells: nil)
      @suite = suite
      @cells = cells || plan_cells
    end

    # The plan a run stored when it was created (Store#planned_cells), as it
    # was: a resumed run measures these cells, never a plan made again.
    def self.stored(suite, rows)
      cells = rows.map do |row|
        key = CellKey.from_row(row)
        Cell.new(index: row["position"], server_index: key.variant - 1, server_config: key.config,
                 endpoint: row["endpoint_entry"], concurrency: key.concurrency, rate: key.offered_rate_per_s, key: key)
      end
      new(suite, cells: cells)
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

    private

    def plan_cells
      cells = []
      suite.server_configs.each_with_index do |config, si|
        endpoints_for(config).each do |endpoint|
          levels = endpoint["concurrency"] || suite["concurrency"]
          levels &= config["concurrency"] if config["concurrency"]
          rates = endpoint["rates"] || suite["rates"] || [nil]
          rates = [nil] if rates == "auto" # found when the suite runs (Tune::AutoRates); no level before
          levels.product(rates).each { |c, rate| cells << cell(cells.size + 1, si, config, endpoint, [c, rate]) }
        end
      end
      cells
    end

    # A cell at level [concurrency, rate] and its key; each config's label
    # rendered once by its adapter.
    def cell(index, server_index, entry, endpoint, level)
      concurrency, rate = level
      config = self.class.for_clients(entry, concurrency)
      @labels ||= {}
      label = (@labels[config] ||= Servers.fetch(config["server"]).new(config).label)
      key = CellKey.build(config, endpoint: endpoint, concurrency: concurrency, offered_rate_per_s: rate,
                                  variant: server_index + 1, config_label: label)
      Cell.new(index: index, server_index: server_index, server_config: config, endpoint: endpoint,
               concurrency: concurrency, rate: rate, key: key)
    end
  end
end
