# frozen_string_literal: true

module Rackbench
  # The suite's key schema: every top-level key with its type, bounds,
  # default and meaning (Knob), read by Suite#validate!, the defaults it
  # applies, RepeatPolicy and the command-line overrides' checks.
  class Suite
    MAX_DURATION_S = 86_400 # one day: a cell, a warm-up, a timeout

    def self.key(name, types, **options) = [name, Knob.new(name, types, **options)]

    def self.duration(name, doc, low = { above: 0 }, **options)
      key(name, :number, unit: "seconds", max: MAX_DURATION_S, doc: doc, **low, **options)
    end
    private_class_method :key, :duration

    # Every top-level key of a suite: its type, bounds, default and meaning (Knob).
    KEYS = [
      key("name", :string, doc: "the suite's name (default: its file's)"),
      key("description", :string, default: "", doc: "one line on what it measures"),
      key("app", :string, default: "rack", doc: "a bundled app (apps/NAME) or a path to a config.ru"),
      # The app's own needs (OwnApp): env vars of every server, commands run
      # once before the first deployment, the path that answers once it is ready.
      key("env", :mapping, default: {}, doc: "environment variables of every server"),
      # Secrets: values never stored; a name that looks secret is kept out unless public_env: lists it.
      key("env_file", :string, doc: "a file of NAME=VALUE lines every server gets (beside the suite); never stored"),
      key("public_env", :list, doc: "env names stored as typed though they look secret (KEY, TOKEN, ...)"),
      key("setup", :list, doc: "commands run once before the first deployment"),
      key("reset", :list, doc: "commands that reset the app's data before each start (or window)"),
      key("reset_each", :one_of, values: %w[start window], doc: "when reset: runs"),
      key("ready_path", :string, doc: "the path that answers once the app is ready"),
      key("endpoints", :list, doc: "paths, or {path: ..., expect_body: ...}"),
      key("mix", :list, doc: "weighted endpoints sent as one traffic mix"),
      key("concurrency", :list, default: [10], doc: "connections of each cell"),
      duration("duration_s", "measured seconds per cell", default: 2),
      duration("warmup_s", "load applied before measuring, never counted", { min: 0 }, default: 1),
      # SteadyWarmup: until the last seconds' throughput has no trend (default for Rails, yjit and JRuby servers).
      key("warmup", :string, doc: "steady (until throughput has no trend) or fixed (warmup_s)"),
      duration("warmup_s_max", "the longest a steady warm-up may take", default: SteadyWarmup::DEFAULT_MAX_S),
      key("requests", :whole, min: 1, max: 1_000_000_000, doc: "requests per cell instead of a duration"),
      duration("timeout_s", "seconds a request may take", default: 10),
      key("rate", :number, above: 0, unit: "requests per second", doc: "one offered open-loop rate"),
      # A rate sweep: each offered open-loop rate (req/s) a level of every cell
      # (Plan), at each concurrency, which sets the connections available.
      key("rates", %i[list string],
          doc: "offered open-loop rates, each a level of every cell; or auto: found from each config's knee under slo:"),
      key("slo", :string, doc: "rates: auto's bound, as tune's --slo: 'p99<=200ms' or 'p99<=200ms,errors<=1%'"),
      key("searches", :whole, min: 2, default: 3, doc: "rates: auto's knee searches per config, each on two fresh starts"),
      key("probe_s", :number, min: 0.5, max: 10, default: 2,
                              unit: "seconds",
                              doc: "rates: auto's (and tune's) shortest knee probe; longer where the SLO's percentile needs it"),
      key("arrivals", :one_of, values: %w[auto uniform poisson],
                               doc: "open loop's arrivals: evenly spaced, or random (Poisson, seeded); " \
                                    "auto: poisson in a rate sweep, uniform at a fixed rate"),
      key("engine", :string, default: "native", doc: "the load engine: native, wrk or ab"),
      key("client_threads", :whole, min: 1, max: 256, default: 1, doc: "load generator threads (rackbench-load's limit: 256)"),
      key("keepalive", :boolean, default: true, doc: "keep connections open between requests"),
      # Slow clients (engine: native): connections beside each cell's
      # concurrency that send each request and read each response at these
      # paces, measured apart from the full-speed ones (Result#slow_clients).
      key("slow_clients", :whole, min: 0, max: 100_000, doc: "slow connections beside each cell's concurrency (engine: native)"),
      key("slow_send_bytes_per_s", :number, above: 0, unit: "bytes per second",
                                            doc: "the pace slow clients send each request at (default: full speed)"),
      key("slow_read_bytes_per_s", :number, above: 0, unit: "bytes per second",
                                            doc: "the pace slow clients read each response at (default: full speed)"),
      key("pin", :boolean, default: true, doc: "pin the server and the load generator to disjoint CPUs"),
      duration("ready_timeout_s", "seconds a deployment may take to answer", default: 30),
      key("servers", :list, doc: "server configs, each {server: NAME, knobs...}"),
      key("services", :list, doc: "backing services, each {service: NAME, ...}"),
      key("depends_on", :list, doc: "processes the app depends on, already running: {name:, port:|pid_file:|command:}"),
      # Across machines (Hosts): ssh destinations by name, and the roles they take.
      key("hosts", :mapping, doc: "ssh destinations by name"),
      key("server_host", :string, doc: "the host the servers run on"),
      key("load_hosts", :list, doc: "the hosts the load comes from"),
      key("app_sync", :boolean, default: false,
                                doc: "copy the app's folder to each server host's run folder (else: the same path there)"),
      # How many server starts and windows (RepeatPolicy, StartSample):
      # "auto" runs `deployments` starts of `windows` windows, then as many
      # more starts (at most max_deployments, and max_cell_s seconds of load a
      # cell) as the throughput interval needs to be within ±precision;
      # `repeats: N` runs N windows over `deployments` starts. Configs whose
      # ratio's interval lies within ±margin of 1 are "equivalent".
      key("repeats", %i[one_of whole], values: ["auto"], min: 1, default: "auto",
                                       doc: "auto, or a whole number of windows per cell"),
      key("deployments", :whole, min: 1, default: 3,
                                 doc: "server starts before the first look (stein: of the first stage; fixed: in all)"),
      key("windows", :whole, min: 1, default: 2,
                             doc: "windows in turns per server start (auto; with ratio: duet, a block its ratio " \
                                  "windows decide takes one a start)"),
      key("max_deployments", :whole, min: 1, default: 20, doc: "server starts auto stops at"),
      duration("max_cell_s", "seconds of load per cell beyond which auto adds no start", default: 90),
      key("precision", :number, above: 0, max: 0.99, default: 0.05,
                                doc: "the throughput interval's half-width auto aims for (0.05: ±5 %)"),
      key("margin", :number, above: 0, max: 0.99, default: 0.05,
                             doc: "configs within ±margin of each other are equivalent (0.05: ±5 %)"),
      duration("budget_s", "wall time auto may spend: starts go to the comparisons still open until it is spent"),
      key("spending", :one_of, values: Sequential::SPENDING.map(&:to_s), default: "pocock",
                               doc: "how a sequential run spends the 5 % of its 'faster' calls over its looks: " \
                                    "pocock (early stops), obrien_fleming (keeps it for the last looks) or constant"),
      key("equivalence_spending", :one_of, values: Sequential::SPENDING.map(&:to_s), default: "obrien_fleming",
                                           doc: "how a sequential run spends the 5 % of its 'equivalent' calls " \
                                                "over its looks (as spending)"),
      key("stopping", :one_of, values: RepeatPolicy::STOPPING, default: "sequential",
                               doc: "auto stops a block when its comparison is settled (sequential), or as Stein decided " \
                                    "after the first stage (stein)"),
      key("duet", :boolean, default: false,
                            doc: "load the configs of a round at the same time on the same CPUs with equal CPU " \
                                 "shares, so interference hits both alike (their ratio is cost per request under " \
                                 "a fair share; not for IO-bound cells)"),
      key("ratio", :one_of, values: %w[turns duet], default: "duet",
                            doc: "how a block's throughput ratio is measured: from the windows in turns, or (duet) " \
                                 "from one more window a start with its configs loaded at once on the same CPUs " \
                                 "with equal CPU shares, read while both servers keep the CPU busy; the figures " \
                                 "still come from the windows in turns (default duet, but turns where windows " \
                                 "are a number of requests: those would not end together)"),
      key("order", :one_of, values: Schedule::ORDERS, doc: "the order cells run in"),
      key("seed", :whole, doc: "the seed of order: random"),
      duration("drain_timeout_s", "seconds to wait for a server to go idle", { min: 0 }, default: 30),
      key("drain_path", :string, doc: "the path the drain probes"),
      key("smoke", :mapping, default: {}, doc: "what --smoke overrides"),
      key("scale", :mapping, default: {}, doc: "what --scale overrides"),
      key("article", :mapping, default: {}, doc: "the article's claims"),
      key("explain", :boolean, default: false, doc: "split latency into queue, app and GC (the probe; engine: native)"),
      key("capacity", :mapping, doc: "memory, price_per_hour and cpus of the machine to size for (Capacity)")
    ].to_h.freeze
  end
end
