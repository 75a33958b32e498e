# frozen_string_literal: true

module Rackbench
  # What a measured config costs to run, from its repeats (a pure function
  # of a Measurement and the run's capacity settings):
  #
  # - memory: each repeat's snapshot at the end of its window
  #   (resources["memory"], WorkerMemory) split as "N MB shared + M MB per
  #   worker after K requests": M is the workers' mean USS (private pages:
  #   what one more worker adds), N the rest of the tree's PSS (the master,
  #   and the pages the workers share copy-on-write). Repeats in the order the
  #   deployment served them show what copy-on-write sharing loses over time.
  # - how many workers fit a memory budget: (budget - N) / M, whole.
  # - CPU time per good request: the server tree's CPU seconds in the
  #   measured windows over the requests answered 2xx/3xx and checked.
  # - with a price: the cost per million requests of a machine of `cpus` CPUs
  #   at that CPU time per request, all CPUs busy (a CPU-bound estimate).
  #
  #   capacity = Capacity.new(measurement, "memory" => 2 * 1024**3, "price_per_hour" => 0.34, "cpus" => 4)
  #   capacity.memory_line        # => "52 MB shared + 31 MB per worker after 18,400 requests"
  #   capacity.workers_fitting    # => 64
  #   capacity.cpu_ms_per_request # => 0.21
  #   capacity.cost_per_million   # => 0.005 (in the price's currency)
  class Capacity
    MB = 1024.0 * 1024

    # One memory snapshot: the tree's PSS, the workers' mean USS and PSS, after requests.
    Point = Struct.new(:requests, :workers, :pss_bytes, :worker_uss_bytes, :worker_pss_bytes, keyword_init: true) do
      def shared_bytes = pss_bytes - (workers * worker_uss_bytes)
    end

    SETTINGS = { "memory" => "a size like 512MB or 2GB (or bytes)", "price_per_hour" => "a price > 0 (any currency)",
                 "cpus" => "a whole number of CPUs > 0" }.freeze

    # A suite's capacity: mapping (or the --memory, --price, --cpus flags) as
    # numbers; yields [key, message] for a value it cannot read.
    def self.settings(given)
      (given || {}).to_h do |key, value|
        yield(key, "unknown key; capacity takes #{SETTINGS.keys.join(", ")}") unless SETTINGS.key?(key)
        number = key == "memory" ? bytes(value) : value
        ok = key == "cpus" ? number.is_a?(Integer) : number.is_a?(Numeric)
        yield(key, "must be #{SETTINGS[key]}, got #{value.inspect}") unless ok && number.positive?
        [key, number]
      end
    end

    # "512MB", "2GB", "1.5 GB" or a whole number of bytes, as bytes; nil when unreadable.
    def self.bytes(value)
      return value if value.is_a?(Integer)

      m = value.to_s.strip.match(/\A(\d+(?:\.\d+)?)\s*(KB|MB|GB|TB)?\z/i) or return nil
      (m[1].to_f * { "KB" => 1024, "MB" => 1024**2, "GB" => 1024**3, "TB" => 1024**4 }.fetch(m[2].to_s.upcase, 1)).round
    end

    attr_reader :measurement, :settings

    # settings: the run's capacity settings ("memory", "price_per_hour", "cpus"), any of them.
    def initialize(measurement, settings = {})
      @measurement = measurement
      @settings = Capacity.settings(settings) { |key, message| raise ConfigError, "capacity.#{key}: #{message}" }
    end

    # The snapshots of the cell's repeats, in the order the deployment served them.
    def points
      @points ||= measurement.repeats.filter_map { |r| point(r.resources["memory"]) }.sort_by { |p| p.requests.to_i }
    end

    def point(memory)
      workers = memory && memory["workers"]
      return nil if workers.nil? || workers.empty?

      Point.new(requests: memory["requests"], workers: workers.size, pss_bytes: memory["pss_bytes"],
                worker_uss_bytes: workers.sum { |w| w["uss_bytes"] } / workers.size,
                worker_pss_bytes: workers.sum { |w| w["pss_bytes"] } / workers.size)
    end

    def last = points.last
    def per_worker_mb = last && (last.worker_uss_bytes / MB)
    def shared_mb = last && (last.shared_bytes / MB)

    def memory_line
      return nil unless last

      requests = last.requests ? " after #{last.requests.to_s.gsub(/(\d)(?=(\d{3})+\z)/, "\\1,")} requests" : ""
      format("%.0f MB shared + %.1f MB per worker%s", shared_mb, per_worker_mb, requests)
    end

    # The most workers that fit settings["memory"] (bytes), or nil without a budget or snapshots.
    def workers_fitting(memory_bytes = settings["memory"])
      return nil unless memory_bytes && last&.worker_uss_bytes&.positive?

      [((memory_bytes - last.shared_bytes) / last.worker_uss_bytes).floor, 0].max
    end

    # The mean worker's PSS growth per 1000 requests between the first and last snapshots, or nil.
    def worker_pss_growth_mb_per_k_requests
      first = points.first
      return nil unless first && last && last.requests.to_i > first.requests.to_i

      (last.worker_pss_bytes - first.worker_pss_bytes) / MB * 1000 / (last.requests - first.requests)
    end

    def good_requests
      measurement.repeats.sum do |r|
        r.result.requests.to_i - r.result.errors["status"].to_i - r.result.errors["check"].to_i
      end
    end

    def cpu_ms_per_request
      cpu_s = measurement.repeats.sum { |r| r.resources["cpu_s"].to_f }
      good = good_requests
      good.positive? && cpu_s.positive? ? cpu_s * 1000 / good : nil
    end

    # Machine price per hour / requests an hour of `cpus` CPUs serve at this CPU time, per million requests.
    def cost_per_million
      price = settings["price_per_hour"]
      cpus = settings["cpus"]
      return nil unless price && cpus && cpu_ms_per_request

      requests_per_hour = cpus * 3_600_000 / cpu_ms_per_request
      price / requests_per_hour * 1_000_000
    end

    def to_h
      { "memory_line" => memory_line, "shared_mb" => shared_mb, "per_worker_mb" => per_worker_mb,
        "workers_fitting" => workers_fitting, "memory_budget_bytes" => settings["memory"],
        "worker_pss_growth_mb_per_k_requests_requests" => worker_pss_growth_mb_per_k_requests,
        "cpu_ms_per_good_request" => cpu_ms_per_request, "cost_per_million_requests" => cost_per_million,
        "points" => points.map(&:to_h) }
    end
  end
end
