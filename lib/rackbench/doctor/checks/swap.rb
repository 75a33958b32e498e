# frozen_string_literal: true

module Rackbench
  module Doctor
    # Swap in use: a page swapped in mid-run adds latency the server does not cause.
    class Swap < Check
      NAME = "swap"

      def findings
        used = machine.swap_used_bytes.to_i
        return [] unless used.positive?

        [warning("#{mb(used)} of swap in use: pages swapped in during a run add latency the server does not cause",
                 where: "this machine (/proc/meminfo: SwapTotal - SwapFree)",
                 fix: "free memory before the run, or `swapoff -a` on a benchmark machine")]
      end
    end

    register("swap", Swap)
  end
end
