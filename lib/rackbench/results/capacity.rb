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
  # - sharing lost over time: the mean worker's USS when its deployment's
  #   workers first all existed (the sampler's series from the server's start,
  #   resources["memory_series"] of the first window) against the last snapshot's.
  # - a refork (pitchfork's refork_after, puma's fork_worker) or any other
  #   replacement of the workers while the deployment served: the mean
  #   worker's USS just before, just after and at the end, from the series.
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

    # One memory snapshot: the tree's PSS, the workers' mean USS and PSS, after
    # requests served by its deployment (start); series: the sampler's points
    # through that window (Sampler.memory_series), when stored.
    Point = Struct.new(:start, :requests, :workers, :pss_bytes, :worker_uss_bytes, :worker_pss_bytes, :series,
                       keyword_init: true) do
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

    # The snapshots of the cell's repeats, by server start and in the order
    # each deployment served them.
    def points
      @points ||= measurement.repeats.filter_map { |r| point(r) }.sort_by { |p| [p.start.to_i, p.requests.to_i] }
    end

    def point(repeat)
      memory = repeat.resources["memory"]
      workers = memory && memory["workers"]
      return nil if workers.nil? || workers.empty?

      Point.new(start: repeat.deployment, requests: memory["requests"], workers: workers.size, pss_bytes: memory["pss_bytes"],
                worker_uss_bytes: workers.sum { |w| w["uss_bytes"] } / workers.size,
                worker_pss_bytes: workers.sum { |w| w["pss_bytes"] } / workers.size,
                series: repeat.resources["memory_series"])
    end

    # Each start's snapshots, in the order its deployment served them.
    def by_start = points.group_by(&:start).values

    # The figures come from the start that served the most requests: its first and last snapshots.
    def longest = @longest ||= by_start.max_by { |list| list.last.requests.to_i }
    def last = longest&.last
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

    # The mean worker's PSS growth per 1000 requests between the first and
    # last snapshots of one deployment (snapshots of different starts are not
    # one worker's history), the mean over starts with two or more; or nil.
    def worker_pss_growth_mb_per_k_requests
      growths = by_start.filter_map do |list|
        first = list.first
        last = list.last
        next unless last.requests.to_i > first.requests.to_i

        (last.worker_pss_bytes - first.worker_pss_bytes) / MB * 1000 / (last.requests - first.requests)
      end
      growths.empty? ? nil : Stats.mean(growths)
    end

    # [first, last] mean worker USS in MB of the longest-serving deployment:
    # at its series' first point (its workers just forked, for a run that
    # sampled from the server's start) and at the end of its last window; nil without a series.
    def worker_uss_mb_first_to_last
      from = longest && longest.first.series&.dig(0, 2)
      from ? [from / MB, last.worker_uss_bytes / MB] : nil
    end

    # Memory around the first time most of the deployment's workers were new
    # processes (a refork, or workers restarted): {"before_mb", "after_mb",
    # "end_mb"} of the mean worker's USS, from the longest-serving
    # deployment's series; nil when its workers stayed the same.
    def workers_replaced
      series = longest.to_a.flat_map { |p| p.series.to_a }.select { |point| point[2] && point[3] }
      return nil if series.empty?

      first = series.first[3]
      i = series.index { |point| (point[3] - first).size * 2 > point[3].size }
      return nil unless i

      { "before_mb" => series[i - 1][2] / MB, "after_mb" => series[i][2] / MB, "end_mb" => series.last[2] / MB }
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
        "worker_uss_mb_first_to_last" => worker_uss_mb_first_to_last, "workers_replaced" => workers_replaced,
        "cpu_ms_per_good_request" => cpu_ms_per_request, "cost_per_million_requests" => cost_per_million,
        "points" => points.map { |p| p.to_h.except(:series) } }
    end
  end
end
