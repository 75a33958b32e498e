# frozen_string_literal: true

module Rackbench
  # One measured cell (server config x endpoint x concurrency) with its
  # repeats, and every figure derived from them: the only place where req/s,
  # latency percentiles, errors n/tot, memory and CPU are computed. The Store
  # builds these (Store#measurements); every report, comparison and article
  # claim reads them and nothing else.
  #
  #   m = store.measurements(run_id).first
  #   m.requests_per_s       # median over repeats
  #   m.requests_per_s_ci    # Stats::Interval, 95 % bootstrap, nil with one repeat
  #   m.latency_ms(99)       # from the merged histogram of all repeats
  #   m.values("latency_p99_ms")  # one value per repeat, what comparisons resample
  #   m.warnings             # [Measurement::Warning] with advice
  class Measurement
    # One load window on one deployment. round: the schedule's round in which
    # it ran (repeats of compared configs in the same round were measured
    # back to back, and pair up in a comparison).
    Repeat = Struct.new(:index, :deployment, :round, :result, :resources, :noise, :drain_s, :started_at,
                        keyword_init: true) do
      def requests_per_s = result.requests_per_s.to_f

      # Responses that were good answers, per second: a rejection (a 503 from a
      # full queue) is a response to wrk and ab, but not throughput.
      def good_requests_per_s
        return 0.0 unless result.requests.to_i.positive?

        requests_per_s * (result.total - result.error_count) / result.requests
      end

      def latency_us(percentile)
        hist = result.histogram
        return Stats.histogram_percentile(hist, percentile) if hist.is_a?(Array) && !hist.empty?

        result.latency_us[percentile == 100 ? "max" : "p#{percentile.to_s.delete_suffix(".0")}"]
      end

      def latency_mean_us
        hist = result.histogram
        hist.is_a?(Array) && !hist.empty? ? Stats.histogram_mean(hist) : result.latency_us["mean"]
      end

      def error_share = result.total.positive? ? result.error_count.fdiv(result.total) : 0.0
      def memory_bytes = resources["pss_max_bytes"] || resources["rss_max_bytes"]
      def cpu_percent = resources["cpu_percent"]
    end

    # A condition that makes figures less trustworthy, with what to do about it.
    Warning = Struct.new(:kind, :message, :advice) do
      def to_s = advice ? "#{message}: #{advice}" : message
    end

    # name => [per-repeat reader, which way is better, unit]: what a claim,
    # a comparison or a chart can ask for.
    METRICS = {
      "requests_per_s" => [lambda(&:requests_per_s), :higher, "req/s"],
      "good_requests_per_s" => [lambda(&:good_requests_per_s), :higher, "good req/s (errors left out)"],
      "latency_mean_ms" => [->(r) { r.latency_mean_us&./(1000.0) }, :lower, "ms mean"],
      "latency_p50_ms" => [->(r) { r.latency_us(50)&./(1000.0) }, :lower, "ms p50"],
      "latency_p99_ms" => [->(r) { r.latency_us(99)&./(1000.0) }, :lower, "ms p99"],
      "longest_ms" => [->(r) { r.latency_us(100)&./(1000.0) }, :lower, "ms longest request"],
      "error_share" => [lambda(&:error_share), :lower, "of requests failed"],
      "server_load" => [->(r) { r.cpu_percent&./(100.0) }, :lower, "server cores busy"],
      "memory_mb" => [->(r) { r.memory_bytes&./(1_048_576.0) }, :lower, "MB"],
      "total_time_s" => [->(r) { r.result.duration_s }, :lower, "s total"],
      "transfer_kb_per_s" => [->(r) { r.result.bytes && (r.result.bytes / 1024.0 / r.result.duration_s) }, :higher, "KB/s"]
    }.freeze

    DEFAULT_PRECISION = Suite::KEYS.fetch("precision").default

    attr_reader :cell, :repeats, :precision

    # cell: a row of the cells table (Hash); repeats: [Repeat] in measured order.
    def initialize(cell, repeats, precision: DEFAULT_PRECISION)
      @cell = cell
      @repeats = repeats.sort_by(&:index)
      @precision = precision || DEFAULT_PRECISION
    end

    # A cell row as rackbench 0.1 stored it (one window in "result" and
    # "resources"): a measurement of one repeat.
    def self.from_row(row, precision: DEFAULT_PRECISION)
      repeats = if row["result"] && row["status"] == "ok"
                  [Repeat.new(index: 1, deployment: 1, round: nil, result: Result.from_h(row["result"]),
                              resources: row["resources"] || {}, noise: nil)]
                else
                  []
                end
      new(row, repeats, precision: precision)
    end

    def self.metric(name)
      METRICS.fetch(name) { raise ConfigError, "unknown metric #{name.inspect}; known: #{METRICS.keys.join(", ")}" }
    end

    %w[label server config endpoint path concurrency position engine status reason log_tail server_version
       server_command offered_rate_per_s variant].each { |key| define_method(key) { cell[key] } }

    # The config's label without the offered rate (a row stored without a key: its label).
    def config_label = cell["config_label"] || label

    # The stored cell row's fields by name (what reports group and label by).
    def [](key) = cell[key]
    def dig(*keys) = cell.dig(*keys)

    def ok? = status == "ok" && !repeats.empty?

    # --- throughput -------------------------------------------------------
    def requests_per_s = median_of("requests_per_s")
    def requests_per_s_ci = Stats.bootstrap_ci(values("requests_per_s"))
    def good_requests_per_s = median_of("good_requests_per_s")
    def cv = ok? ? Stats.cv(values("requests_per_s")) : nil

    # --- latency ----------------------------------------------------------
    # Merged histogram of every repeat, when the engine recorded one.
    def histogram
      @histogram ||= begin
        lists = repeats.map { |r| r.result.histogram }
        lists.all? { |h| h.is_a?(Array) && !h.empty? } && !lists.empty? ? Stats.merge_histograms(lists) : nil
      end
    end

    def latency_ms(percentile)
      return nil unless ok?

      us = if histogram
             Stats.histogram_percentile(histogram, percentile)
           else
             median_or_nil(repeats.map do |r|
               r.latency_us(percentile)
             end)
           end
      us && (us / 1000.0)
    end

    def latency_mean_ms
      return nil unless ok?

      us = histogram ? Stats.histogram_mean(histogram) : median_or_nil(repeats.map(&:latency_mean_us))
      us && (us / 1000.0)
    end

    def latency_ci_ms(percentile)
      values = repeats.filter_map { |r| r.latency_us(percentile) }
      ci = Stats.bootstrap_ci(values)
      ci && Stats::Interval.new(ci.low / 1000.0, ci.high / 1000.0, ci.estimate / 1000.0, ci.level)
    end

    # Per-second points of every repeat: [{"repeat"=>, "t_s"=>, "requests_per_s"=>, "p99_ms"=>}]
    def series
      repeats.flat_map do |r|
        points = r.result.series
        points.each_with_index.map do |point, i|
          interval_s = i.zero? ? point["t_s"] : point["t_s"] - points[i - 1]["t_s"]
          { "repeat" => r.index, "deployment" => r.deployment, "t_s" => point["t_s"],
            "requests_per_s" => interval_s.to_f.positive? ? point["requests"] / interval_s : nil,
            "p99_ms" => point["p99_us"] && (point["p99_us"] / 1000.0) }
        end
      end
    end

    # --- errors -----------------------------------------------------------
    def errors = repeats.sum { |r| r.result.error_count }
    def attempted = repeats.sum { |r| r.result.total }
    def requests = repeats.sum { |r| r.result.requests.to_i }
    def error_share = attempted.positive? ? errors.fdiv(attempted) : nil
    def errors_n_tot = ok? ? "#{errors}/#{attempted}" : "-"

    def errors_by_kind
      repeats.each_with_object(Hash.new(0)) { |r, sum| r.result.errors.each { |k, n| sum[k] += n } }
    end

    # --- resources --------------------------------------------------------
    # The largest PSS of the server tree over the repeats; RSS (and
    # memory_kind "RSS") when some repeat could not read PSS.
    def memory_bytes
      return nil if repeats.empty?

      key = memory_kind == "PSS" ? "pss_max_bytes" : "rss_max_bytes"
      repeats.filter_map { |r| r.resources[key] }.max
    end

    def memory_kind
      repeats.all? { |r| r.resources["pss_max_bytes"] } ? "PSS" : "RSS"
    end

    def memory_mb = memory_bytes&./(1_048_576.0)
    def cpu_percent = median_or_nil(repeats.map(&:cpu_percent))
    def processes = repeats.filter_map { |r| r.resources["processes_max"] }.max
    # The app's dependencies beside the server (Dependencies): {name => {cpu_percent, memory_bytes, cpus_seen, ...}}.
    def dependencies = @dependencies ||= Dependencies.of(repeats)
    def resources_text = Dependencies.text(self)
    def deployments = repeats.map(&:deployment).uniq.size

    # --- any metric -------------------------------------------------------
    # One value per repeat (nil-free), for comparisons and claims.
    def values(name)
      reader, = self.class.metric(name)
      repeats.filter_map { |r| reader.call(r) }
    end

    # The cell's figure for a metric: a median over repeats, except latency
    # percentiles (merged histogram) and memory (the largest).
    def figure(name)
      case name
      when "latency_mean_ms" then latency_mean_ms
      when "latency_p50_ms" then latency_ms(50)
      when "latency_p99_ms" then latency_ms(99)
      when "longest_ms" then latency_ms(100)
      when "memory_mb" then memory_mb
      when "error_share" then error_share
      else median_of(name)
      end
    end

    # --- warnings ---------------------------------------------------------
    def warnings
      @warnings ||= Warnings.for(self)
    end

    def to_h
      {
        "label" => label, "server" => server, "config" => config, "endpoint" => endpoint, "path" => path,
        "concurrency" => concurrency, "status" => status, "reason" => reason, "engine" => engine,
        "repeats" => repeats.size, "deployments" => deployments, "requests_per_s" => requests_per_s,
        "requests_per_s_ci" => requests_per_s_ci&.to_a, "cv" => cv, "good_requests_per_s" => good_requests_per_s,
        "latency_mean_ms" => latency_mean_ms, "latency_p50_ms" => latency_ms(50), "latency_p99_ms" => latency_ms(99),
        "latency_p50_ci_ms" => latency_ci_ms(50)&.to_a, "latency_p99_ci_ms" => latency_ci_ms(99)&.to_a,
        "errors" => errors, "attempted" => attempted,
        "errors_by_kind" => errors_by_kind, "memory_bytes" => memory_bytes, "memory_kind" => memory_kind,
        "cpu_percent" => cpu_percent, "warnings" => warnings.map(&:to_s), "log_tail" => log_tail,
        "server_version" => server_version, "server_command" => server_command, "engine_command" => cell["engine_command"],
        "dependencies" => dependencies
      }.merge(all_requests_h)
    end

    private

    def median_of(name) = ok? ? median_or_nil(values(name)) : nil

    def median_or_nil(values)
      values = values.compact
      values.empty? ? nil : Stats.median(values)
    end
  end
end
require_relative "measurement/warnings"
require_relative "measurement/all_requests"
require_relative "measurement/dependencies"
