# frozen_string_literal: true

module Rackbench
  # One measured cell (server config x endpoint x concurrency) with its
  # repeats, and every figure derived from them: the only place where req/s,
  # latency percentiles, errors n/tot, memory and CPU are computed. The Store
  # builds these (Store#measurements); every report, comparison and article
  # claim reads them and nothing else.
  #
  #   m = store.measurements(run_id).first
  #   m.requests_per_s       # over server starts: exp(mean of each start's mean log req/s)
  #   m.requests_per_s_ci    # Stats::Interval: Student t over starts (StartSample), nil with one start
  #   m.latency_ms(99)       # from the merged histogram of all repeats
  #   m.latency_ci_ms(99)    # batch means over starts, centred on that figure; nil when not estimable
  #   m.sample("good_requests_per_s")  # StartSample: the windows' values grouped by start
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

      # A window measured only for a comparison's ratio (suite key ratio:
      # duet): the configs loaded at once, each under a share of the CPU.
      # None of the cell's own figures reads it (Measurement#ratio_repeats).
      def ratio? = noise.is_a?(Hash) && noise["window"] == RATIO_WINDOW
    end

    RATIO_WINDOW = "ratio" # Repeat#noise["window"] of a ratio window

    # A condition that makes figures less trustworthy, with what to do about it.
    # value: the figure the message is about (a share, seconds), so a report
    # can pick the worst of a kind without reading numbers back out of text.
    Warning = Struct.new(:kind, :message, :advice, :value, :code) do
      def to_s = advice ? "#{message}: #{advice}" : message
    end

    # name => [per-repeat reader, which way is better, unit]: what a claim,
    # a comparison or a chart can ask for.
    METRICS = {
      "requests_per_s" => [lambda(&:requests_per_s), :higher, "req/s"],
      "good_requests_per_s" => [lambda(&:good_requests_per_s), :higher, "good req/s (errors left out)"],
      "latency_mean_ms" => [->(r) { r.latency_mean_us&./(1000.0) }, :lower, "ms mean"],
      "latency_p50_ms" => [->(r) { r.latency_us(50)&./(1000.0) }, :lower, "ms p50"],
      "latency_p90_ms" => [->(r) { r.latency_us(90)&./(1000.0) }, :lower, "ms p90"],
      "latency_p99_ms" => [->(r) { r.latency_us(99)&./(1000.0) }, :lower, "ms p99"],
      "longest_ms" => [->(r) { r.latency_us(100)&./(1000.0) }, :lower, "ms longest request"],
      "error_share" => [lambda(&:error_share), :lower, "of requests failed"],
      "server_load" => [->(r) { r.cpu_percent&./(100.0) }, :lower, "server cores busy"],
      "memory_mb" => [->(r) { r.memory_bytes&./(1_048_576.0) }, :lower, "MB"],
      "total_time_s" => [->(r) { r.result.duration_s }, :lower, "s total"],
      "transfer_kb_per_s" => [->(r) { r.result.bytes && (r.result.bytes / 1024.0 / r.result.duration_s) }, :higher, "KB/s"],
      # With slow clients beside them (a suite's slow_clients:), the full-speed clients' own p99.
      "fast_latency_p99_ms" => [->(r) { r.result.fast_clients&.latency_ms(99) }, :lower, "ms p99 of the full-speed clients"]
    }.freeze

    DEFAULT_PRECISION = Suite::KEYS.fetch("precision").default

    # A percentile is estimable from n requests when at least this many lie
    # beyond it: p99 needs 1,000 requests, p50 20 (per start for its interval).
    TAIL_REQUESTS = 10

    # repeats: the windows every figure of the cell reads; ratio_repeats: its
    # ratio windows (Repeat#ratio?), which only a Comparison reads.
    attr_reader :cell, :repeats, :ratio_repeats, :precision, :first_stage, :interval_rule, :sequential

    # cell: a row of the cells table (Hash); repeats: [Repeat] in measured order.
    # first_stage: the starts from which the run decided how many to make
    # (RepeatPolicy#first_stage), for Stein's interval; nil when fixed.
    # sequential: the Sequential design of a run that stopped when its
    # question was settled (RepeatPolicy#design): every interval is then its
    # repeated confidence interval. interval_rule: how intervals over starts
    # use these (StartSample.standard_error); only Simulation's comparison of
    # rules changes it.
    def initialize(cell, repeats, precision: DEFAULT_PRECISION, first_stage: nil, interval_rule: :wider, sequential: nil)
      @cell = cell
      @ratio_repeats, @repeats = repeats.sort_by(&:index).partition(&:ratio?)
      @precision = precision || DEFAULT_PRECISION
      @first_stage = first_stage
      @interval_rule = interval_rule
      @sequential = sequential
    end

    # The interval options every interval over starts of this measurement takes.
    def interval_options = { first_stage: first_stage, rule: interval_rule, sequential: sequential }

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
    # Figures and intervals over server starts (StartSample): the estimate
    # always lies inside its own interval.
    def requests_per_s = ok? ? sample("requests_per_s").estimate : nil
    def requests_per_s_ci = ok? ? sample("requests_per_s").interval(**interval_options) : nil
    def good_requests_per_s = ok? ? sample("good_requests_per_s").estimate || 0.0 : nil
    def good_requests_per_s_ci = ok? ? sample("good_requests_per_s").interval(**interval_options) : nil
    def cv = ok? ? Stats.cv(values("requests_per_s")) : nil

    # A metric's per-window values grouped by server start.
    def sample(name) = (@samples ||= {})[name] ||= self.class.sample_of(repeats, name)

    # The same for windows that are not (yet) a cell's Measurement: what
    # progress shows of a cell while it is measured.
    def self.sample_of(repeats, name)
      reader, = metric(name)
      StartSample.of(repeats, start_of: :deployment.to_proc, value_of: reader)
    end

    # The spread of throughput at each level (log scale, as CVs): between
    # windows of one start, and between starts beyond that.
    def noise_components
      s = sample("requests_per_s")
      { "starts" => s.starts, "windows" => s.windows, "within_start_cv" => s.within_cv, "between_start_cv" => s.between_cv }
    end

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

    # The interval of latency_ms(percentile) by batch means over server
    # starts: each start's own percentile (from its merged histogram) says how
    # much the figure moves from start to start; the interval is the figure
    # times exp(± t * spread / sqrt(starts)) on the log scale, so the figure
    # always lies inside it. nil with fewer than two starts, or when a start
    # has too few requests for the percentile (#estimable?).
    def latency_ci_ms(percentile, level: Stats::LEVEL)
      figure = latency_ms(percentile)
      per_start = start_latencies_us(percentile)
      return nil unless figure&.positive? && per_start && per_start.size >= 2

      logs = per_start.map { |us| Math.log(us) }
      critical = sequential ? sequential.critical(logs.size) : StudentT.critical(level, logs.size - 1)
      half = critical * Stats.stddev(logs) / Math.sqrt(logs.size)
      StartSample::LogInterval.around(Math.log(figure), half, level)
    end

    # Each start's percentile (µs): from the merged histogram of its windows,
    # or, for an engine without histograms (wrk, ab), the geometric mean of
    # the percentile each window reported. nil unless every start has enough
    # requests for the percentile.
    def start_latencies_us(percentile)
      by_start = repeats.group_by(&:deployment).sort_by { |start, _| start.to_i }.map(&:last)
      by_start.map do |list|
        value = start_latency_us(list, percentile)
        return nil unless value&.positive?

        value
      end
    end

    def start_latency_us(list, percentile)
      hists = list.map { |r| r.result.histogram }
      return reported_latency_us(list, percentile) unless hists.all? { |h| h.is_a?(Array) && !h.empty? }

      merged = Stats.merge_histograms(hists)
      estimable_from?(merged.sum(&:last), percentile) ? Stats.histogram_percentile(merged, percentile) : nil
    end

    # Without histograms: the geometric mean of what each window's engine reported.
    def reported_latency_us(list, percentile)
      return nil unless estimable_from?(list.sum { |r| r.result.requests.to_i }, percentile)

      values = list.filter_map { |r| r.latency_us(percentile) }.select(&:positive?)
      values.size == list.size ? Math.exp(Stats.mean(values.map { |v| Math.log(v) })) : nil
    end

    # Enough requests behind a percentile: TAIL_REQUESTS of them beyond it.
    def estimable?(percentile) = estimable_from?(latency_count, percentile)

    # The percentile where the requests support it, else nil: what the data
    # formats (json, csv) carry where the table prints "too few".
    def estimable_latency_ms(percentile) = estimable?(percentile) ? latency_ms(percentile) : nil

    # Requests behind the latency figures: the merged histogram's count.
    def latency_count = histogram ? histogram.sum(&:last) : requests

    # The highest of the usual percentiles the requests support.
    def highest_estimable_percentile = [99.9, 99, 90, 50].find { |p| estimable?(p) }

    def estimable_from?(count, percentile) = self.class.estimable_from?(count, percentile)

    # Whether count requests support a percentile: TAIL_REQUESTS beyond it.
    def self.estimable_from?(count, percentile)
      percentile >= 100 ? count.positive? : count * (100 - percentile) / 100.0 >= TAIL_REQUESTS
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
      when "requests_per_s" then requests_per_s
      when "good_requests_per_s" then good_requests_per_s
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
        "good_requests_per_s_ci" => good_requests_per_s_ci&.to_a, "noise" => ok? ? noise_components : nil,
        "latency_mean_ms" => latency_mean_ms, "latency_p50_ms" => estimable_latency_ms(50),
        "latency_p99_ms" => estimable_latency_ms(99),
        "latency_p50_ci_ms" => latency_ci_ms(50)&.to_a, "latency_p99_ci_ms" => latency_ci_ms(99)&.to_a,
        "latency_count" => ok? ? latency_count : nil, "latency_max_ms" => latency_ms(100),
        "latency_p99_9_ms" => estimable_latency_ms(99.9),
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
require_relative "measurement/duet_busy"
require_relative "measurement/all_requests"
require_relative "measurement/dependencies"
