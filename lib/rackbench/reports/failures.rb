# frozen_string_literal: true

module Rackbench
  module Reports
    # The cells that were not measured, stated once per server: a server that
    # could not start fails every cell with the same reason, and a report
    # that repeats it in every row buries the results (000's TorqueBox error
    # is 400 characters). Reasons that differ only by a pid are the same
    # reason. Used by the html and article formats.
    #
    #   Failures.new(measurements).each do |f|
    #     f.label    # "torquebox"
    #     f.reasons  # ["torquebox cannot run here: ..."] distinct, in order
    #     f.cells    # ["/hello c=10", "/sleep/100 c=20", ...]
    #   end
    class Failures
      include Enumerable

      Failure = Struct.new(:label, :server, :reasons, :cells) do
        def cells_text = cells.size > 3 ? "#{cells.size} cells" : cells.join(", ")
      end

      def initialize(measurements)
        @measurements = measurements.reject(&:ok?)
      end

      def each(&)
        @measurements.group_by(&:label).map do |label, list|
          reasons = list.map { |m| self.class.normalize(m.reason) }.uniq
          Failure.new(label, list.first.server, reasons, list.map { |m| "#{m.endpoint} c=#{m.concurrency}" })
        end.each(&)
      end

      # A reason with the pids taken out ("exited before it was ready (exit 1)"),
      # so the same failure in several cells reads as one.
      def self.normalize(reason)
        reason.to_s.gsub(/#<Process::Status: pid \d+ ([^>]*)>/, '\1').gsub(/\bpid \d+/, "pid").strip
      end
    end
  end
end
