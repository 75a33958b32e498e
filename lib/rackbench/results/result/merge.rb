# frozen_string_literal: true

module Rackbench
  # One Result from the Results of engines that loaded the same target at the
  # same time from several hosts (Hosts::RemoteLoad). Exact where the parts
  # allow it:
  #
  #   counts (requests, bytes, errors by kind, status codes, reconnects)  summed
  #   requests_per_s                 summed (the hosts' windows are aligned)
  #   histogram                      merged bucket by bucket (Stats.merge_histograms)
  #   latency_us                     mean weighted by requests; min/max of the hosts';
  #                                  percentiles read from the merged histogram
  #   series                         second by second: requests and errors summed, max_us the
  #                                  highest; p50_us/p99_us the highest host's (an upper bound:
  #                                  a second's percentile cannot be merged from percentiles)
  #   endpoints (a traffic mix)      counts summed per endpoint, histograms merged
  #   window_requests                counts summed, completed and censored histograms merged
  #                                  (WindowRequests.merge), also per endpoint; nil when a part lacks them
  #   schedule                       the first host's (every host offered the same)
  #   warnings                       each host's, prefixed with its name; warning_codes each host's
  #   sent, body and decoded bytes,  summed (nil when a part lacks them)
  #   warm-up responses
  #   clients (fast and slow)        counts and paced bytes and seconds summed, histograms merged;
  #                                  nil when a part lacks them
  #
  #   Result.merge([a, b], hosts: [{"host" => "load1", ...}, {"host" => "load2", ...}])
  class Result
    PERCENTILE_KEY = /\Ap(\d+(?:_\d+)?)\z/

    def self.merge(results, hosts: nil)
      hosts ||= results.each_index.map { |i| { "host" => "host #{i + 1}" } }
      histogram = Stats.merge_histograms(results.map { |r| r.histogram || [] })
      new(
        engine: results.first.engine, requests: total(results, :requests), duration_s: results.map { |r| r.duration_s.to_f }.max,
        requests_per_s: total(results, :requests_per_s, :to_f).round(2), bytes: total(results, :bytes),
        errors: sum_maps(results.map(&:errors)), status_counts: sum_maps(results.map(&:status_counts)),
        reconnects: total(results, :reconnects), latency_us: merged_latency(results, histogram), histogram: histogram,
        series: merged_series(results), command: results.first.command, endpoints: merged_endpoints(results),
        warnings: results.zip(hosts).flat_map { |r, h| r.warnings.map { |w| "#{h["host"]}: #{w}" } },
        hosts: results.zip(hosts).map { |r, h| r.to_h.merge(h) },
        window_requests: merged_window_requests(results.map(&:window_requests)), schedule: results.first.schedule,
        **merged_transfer(results)
      )
    end

    # Bytes written and bodies summed (nil where a part lacks them: an engine that does not count
    # them), the client groups merged, the warnings' codes of every host.
    def self.merged_transfer(results)
      TRANSFER.to_h { |field| [field, results.all?(&field) ? total(results, field) : nil] }
              .merge(clients: merged_clients(results), warning_codes: results.flat_map { |r| Array(r.warning_codes) })
    end

    TRANSFER = %i[sent_bytes body_bytes decoded_bytes gzip_responses warmup_requests].freeze
    GROUP_COUNTS = %w[connections requests requests_per_s bytes sent_bytes].freeze
    PACED = %w[send_bytes send_s read_bytes read_s].freeze

    def self.merged_clients(results)
      return nil if results.any? { |r| r.clients.nil? }

      %w[fast slow].to_h { |name| [name, merged_group(results.map { |r| r.clients[name] })] }
    end

    def self.merged_group(parts)
      histogram = Stats.merge_histograms(parts.map { |g| g["histogram"] || [] })
      as_results = parts.map { |g| Result.new(requests: g["requests"], latency_us: g["latency_us"]) }
      parts.first.merge(GROUP_COUNTS.to_h { |k| [k, parts.sum { |g| g[k] || 0 }] }).merge(
        "errors" => sum_maps(parts.map { |g| g["errors"] || {} }), "histogram" => histogram,
        "latency_us" => merged_latency(as_results, histogram), "paced" => merged_paced(parts)
      )
    end

    # Paced bytes and seconds summed, the paces held recomputed from them (not a mean of rates).
    def self.merged_paced(parts)
      paced = PACED.to_h { |k| [k, parts.sum { |g| g.dig("paced", k).to_f }] }
      %w[send read].each do |way|
        s = paced["#{way}_s"]
        paced["#{way}_bytes_per_s"] = s.positive? ? (paced["#{way}_bytes"] / s).round(3) : nil
      end
      paced
    end

    def self.merged_window_requests(parts)
      parts.any?(&:nil?) ? nil : WindowRequests.merge(parts).to_h
    end

    # An endpoint's window requests merged (its parts' percentiles of them are not: WindowRequests reads the merge).
    def self.merged_window_requests_of(parts)
      merged = merged_window_requests(parts.map { |e| e["window_requests"] })
      merged ? { "window_requests" => merged } : {}
    end

    def self.total(items, field, conversion = :to_i) = items.sum { |x| x[field].public_send(conversion) }
    def self.sum_maps(maps) = maps.each_with_object(Hash.new(0)) { |m, sum| m.each { |k, v| sum[k] += v.to_i } }.to_h

    def self.merged_latency(results, histogram)
      latency = results.map(&:latency_us)
      merged = latency.flat_map(&:keys).uniq.to_h { |key| [key, merged_latency_value(key, latency, histogram)] }
      requests = total(results, :requests)
      if requests.positive?
        merged["mean"] = results.sum do |r|
          r.latency_us["mean"].to_f * r.requests.to_i
        end.fdiv(requests).round(1)
      end
      merged.delete("stdev") # not recoverable from the parts
      merged.compact
    end

    def self.merged_latency_value(key, latency, histogram)
      pct = key[PERCENTILE_KEY, 1]
      return Stats.histogram_percentile(histogram, pct.tr("_", ".").to_f) if pct

      values = latency.filter_map { |l| l[key] }
      { "max" => values.max, "min" => values.min }[key]
    end

    def self.merged_series(results)
      results.flat_map(&:series).group_by { |p| p["t_s"].to_f.round(3) }.sort.map do |t_s, points|
        { "t_s" => t_s, "requests" => total(points, "requests"), "errors" => total(points, "errors"),
          "p50_us" => points.map { |p| p["p50_us"].to_i }.max, "p99_us" => points.map { |p| p["p99_us"].to_i }.max,
          "max_us" => points.map { |p| p["max_us"].to_i }.max }
      end
    end

    def self.merged_endpoints(results)
      lists = results.map(&:endpoints)
      return nil if lists.any?(&:nil?)

      lists.flatten.group_by { |e| e["name"] }.map { |_, parts| merged_endpoint(parts) }
    end

    def self.merged_endpoint(parts)
      histogram = Stats.merge_histograms(parts.map { |e| e["histogram"] || [] })
      as_results = parts.map { |e| Result.new(requests: e["requests"], latency_us: e["latency_us"]) }
      parts.first.except("window_requests", "latency_all_us", "latency_all_censored").merge(
        "requests" => total(parts, "requests"), "requests_per_s" => total(parts, "requests_per_s", :to_f),
        "non_success" => total(parts, "non_success"), "errors" => sum_maps(parts.map { |e| e["errors"] || {} }),
        "histogram" => histogram, "latency_us" => merged_latency(as_results, histogram)
      ).merge(merged_window_requests_of(parts))
    end
    private_class_method :total, :sum_maps, :merged_latency, :merged_latency_value, :merged_series, :merged_endpoints,
                         :merged_endpoint, :merged_window_requests, :merged_window_requests_of, :merged_clients,
                         :merged_group, :merged_paced, :merged_transfer
  end
end
