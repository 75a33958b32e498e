# frozen_string_literal: true

module Rackbench
  # Who a cell is, as data: built once by the Plan (a tune probe's by the
  # Tuner), stored as columns of the planned_cells and cells tables and read
  # back as stored. Labels are rendered from it and never parsed back.
  #
  #   key = CellKey.new(server: "puma", config: { "server" => "puma", "threads" => 16 }, config_label: "puma x0:16",
  #                     endpoint: "hello", path: "/hello", concurrency: 16, offered_rate_per_s: 200, variant: 1)
  #   key.label    # => "puma x0:16 @ 200 req/s"
  #   key.columns  # => {"server" => "puma", ..., "label" => "puma x0:16 @ 200 req/s"}
  #
  # config_label: the server adapter's label of the config (rendered once,
  #   when the key is built: nothing instantiates an adapter to show a cell);
  # offered_rate_per_s: a rate sweep's (or tune probe's) offered open-loop
  #   rate, else nil;
  # variant: the number (from 1) of the suite's servers: entry the config
  #   comes from, which tells two entries of the same config apart (an A/A
  #   comparison); for a tune probe, the config's turn in the search.
  CellKey = Struct.new(:server, :config, :config_label, :endpoint, :path, :concurrency, :offered_rate_per_s, :variant,
                       keyword_init: true) do
    # The key of config (a server entry, "clients" already replaced) at one
    # endpoint, concurrency and offered rate; its label rendered by the adapter.
    def self.build(config, endpoint:, concurrency:, variant:, offered_rate_per_s: nil, config_label: nil)
      config_label ||= Servers.fetch(config["server"]).new(config).label
      new(server: config["server"], config: config, config_label: config_label, endpoint: endpoint["name"],
          path: endpoint["path"], concurrency: concurrency, offered_rate_per_s: offered_rate_per_s, variant: variant)
    end

    # The key of a stored row (of planned_cells or cells; config decoded).
    def self.from_row(row)
      new(**members.to_h { |m| [m, row[m.to_s]] })
    end

    # "CONFIG", or in a rate sweep "CONFIG @ RATE req/s".
    def label
      offered_rate_per_s ? "#{config_label} @ #{format("%g", offered_rate_per_s)} req/s" : config_label
    end

    # The columns a stored row carries (config still a Hash).
    def columns = to_h.transform_keys(&:to_s).merge("label" => label)
  end
end
