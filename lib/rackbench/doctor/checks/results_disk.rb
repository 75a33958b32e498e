# frozen_string_literal: true

module Rackbench
  module Doctor
    # A results folder on a nearly full disk (a run fails half way) or a
    # spinning one (logs and the store compete with the server for I/O).
    class ResultsDisk < Check
      NAME = "results_disk"
      MIN_FREE_BYTES = 1 << 30
      MIN_FREE_SHARE = 0.1

      def findings = full + slow

      private

      def where = "results folder #{subject.display(machine.results_dir)}"

      def full
        free = machine.results_free_bytes
        size = machine.results_size_bytes
        return [] unless free && size && (free < MIN_FREE_BYTES || free < size * MIN_FREE_SHARE)

        [warning("the results folder's disk has #{mb(free)} free of #{mb(size)}",
                 where: where, fix: "free space, or --results DIR on another disk")]
      end

      def slow
        return [] unless machine.results_rotational

        [note("the results folder is on a disk the kernel reports as rotational (spinning, or a virtual disk that says so)",
              where: where, fix: "--results DIR on an SSD or tmpfs, if server logs are large")]
      end
    end

    register("results_disk", ResultsDisk)
  end
end
