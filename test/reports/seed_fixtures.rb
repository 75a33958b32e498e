# frozen_string_literal: true

module Rackbench
  # Stored-looking runs and measurements for the report tests, written by hand
  # so each figure is known. A cell gets one repeat per factor, each on a
  # server start of its own, whose req/s are `rps` times the factor (default:
  # a ±1 % spread whose geometric mean is rps, so the figure is rps);
  # key: more of the CellKey's columns ("config_label", "offered_rate_per_s").
  module SeedFixtures
    SPREAD = [0.99, 1.0, 1 / 0.99].freeze

    def cell(label, config, endpoint: "hello", concurrency: 10, rps: 100.0, mean_ms: 10.0, errors: 0, requests: 1000,
             status: "ok", reason: nil, max_ms: 50.0, series: [], histogram: nil, cpu_percent: 90.0, pss_mb: 50,
             spread: SPREAD, rejected: 0, key: {})
      row = {
        "label" => label, "server" => config["server"], "config" => config, "endpoint" => endpoint, "path" => "/#{endpoint}",
        "concurrency" => concurrency, "engine" => "native", "status" => status, "reason" => reason,
        "engine_command" => ["rackbench-load", "-c", concurrency.to_s]
      }.merge(key)
      repeats = if status == "ok"
                  spread.each_with_index.map do |f, i|
                    repeat(i + 1, rps * f, requests, errors, mean_ms, max_ms, series, histogram, cpu_percent, pss_mb,
                           rejected)
                  end
                else
                  []
                end
      Measurement.new(row, repeats)
    end

    def repeat(index, rps, requests, errors, mean_ms, max_ms, series, histogram, cpu_percent, pss_mb, rejected = 0)
      result = Result.new(
        engine: "native", requests: requests, duration_s: requests / rps, requests_per_s: rps, bytes: requests * 2495,
        errors: { "connect" => errors, "status" => rejected },
        latency_us: { "mean" => mean_ms * 1000, "p50" => mean_ms * 1000, "p99" => max_ms * 900, "max" => max_ms * 1000 },
        series: index == 1 ? series : [], histogram: histogram
      )
      resources = { "cpu_percent" => cpu_percent, "pss_max_bytes" => pss_mb * 1_048_576, "processes_max" => 2 }
      Measurement::Repeat.new(index: index, deployment: index, round: index, result: result, noise: nil,
                              resources: resources)
    end

    # A cell of a traffic mix (Traffic): two repeats of 40 requests, 30 to
    # "/" (weight 3) and 10 to "create" (weight 1), with their own errors.
    def mix_cell(label, concurrency: 4)
      endpoints = [
        { "name" => "/", "weight" => 3, "requests" => 30, "histogram" => [[1000, 30]],
          "errors" => { "check" => 0, "other" => 1 } },
        { "name" => "create", "weight" => 1, "requests" => 10, "histogram" => [[5000, 10]],
          "errors" => { "check" => 2, "other" => 0 } }
      ]
      repeats = [1, 2].map do |index|
        result = Result.new(requests: 40, duration_s: 1.0, requests_per_s: 40.0, endpoints: endpoints)
        Measurement::Repeat.new(index: index, deployment: 1, result: result, resources: {}, noise: {})
      end
      row = { "position" => 1, "server" => "puma", "label" => label, "endpoint" => "mix", "path" => "/",
              "concurrency" => concurrency, "status" => "ok", "engine" => "native" }
      Measurement.new(row, repeats)
    end

    def stored_run(article: {}, scaled: nil, dir: "/nonexistent")
      { "id" => 7, "suite" => "seed-test", "status" => "finished", "started_at" => "2026-01-01T00:00:00Z", "dir" => dir,
        "settings" => { "app" => "rack", "article" => article, "scaled" => scaled }.compact,
        "machine" => { "cores" => 2, "engine" => "native" }, "pinning" => {} }
    end
  end
end
