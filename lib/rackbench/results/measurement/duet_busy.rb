# frozen_string_literal: true

module Rackbench
  class Measurement
    # Whether a duet measured costs: its warning (Warnings.for) when a server
    # was not kept busy in its duet windows (suite key duet: true).
    module DuetBusy
      BUSY_SHARE = 0.90 # of its duet windows a server must be runnable (on a CPU or waiting for one)

      module_function

      # A duet's ratio is one of costs under a fair share only while both
      # servers want the CPU: one that idles (waiting on its clients, its
      # threads, a sleep) leaves its share to the partner, and the ratio says
      # something else. Busy: the server tree's CPU seconds plus the seconds
      # its threads waited for a CPU, over the window's sampled seconds
      # (median over its duet windows; windows sampled before the wait was
      # recorded say nothing).
      def warning(measurement)
        shares = measurement.repeats.select { |r| r.noise&.key?("duet") }.filter_map { |r| busy_share(r.resources) }
        return nil if shares.empty? || (busy = Stats.median(shares)) >= BUSY_SHARE

        Warning.new("duet", "in its duet windows the server was busy (on a CPU or waiting for one) " \
                            "#{Warnings.percent(busy)} of the time (median of #{shares.size}), under the " \
                            "#{Warnings.percent(BUSY_SHARE)} a duet needs",
                    "a server that idles leaves its CPU share to its partner, so this ratio is not one of costs: " \
                    "measure in turns (--no-duet), or load it harder (more connections)", busy)
      end

      # Whether a server was busy enough in these duet windows (median of
      # their busy shares); `unknown` when none says (no windows yet, or
      # none sampled its wait).
      def busy?(repeats, unknown: false)
        shares = repeats.filter_map { |r| busy_share(r.resources) }
        shares.empty? ? unknown : Stats.median(shares) >= BUSY_SHARE
      end

      def busy_share(resources)
        cpu_s, wait_s, sampled_s = resources&.values_at("cpu_s", "cpu_wait_s", "sampled_s")
        return nil unless cpu_s && wait_s && sampled_s.to_f.positive?

        (cpu_s + wait_s) / sampled_s
      end
    end
  end
end
