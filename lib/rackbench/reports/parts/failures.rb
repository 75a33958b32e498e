# frozen_string_literal: true

require "set"

module Rackbench
  module Reports
    # The cells that were not measured, stated once per server and reason: a
    # server that could not start fails every cell (in every config) with the
    # same reason, and a report that repeats it in every row buries the
    # results (000's TorqueBox error is 400 characters). Reasons that differ
    # only by a pid are the same reason. The report document's "failures"
    # section (#section) is built from them, so every format states a
    # failure alike; the article format's notes use them too.
    #
    #   Failures.new(measurements).section  # => Document::Section "failures", or nil when every cell was measured
    #   Failures.new(measurements).each do |f|
    #     f.server   # "torquebox"
    #     f.reason   # "torquebox cannot run here: ..."
    #     f.labels   # ["torquebox", "torquebox x0:4", ...] the configs it concerns
    #     f.cells    # ["/hello c=10", "/sleep/100 c=20", ...]
    #   end
    class Failures
      include Enumerable

      Failure = Struct.new(:server, :reason, :labels, :cells) do
        def cells_text = cells.size > 3 ? "#{cells.size} cells" : cells.join(", ")

        # "torquebox (7 cells, 3 configs)"
        def where = "#{server} (#{[cells_text, labels.size > 1 ? "#{labels.size} configs" : nil].compact.join(", ")})"

        # The reason's first line: what a report's line says (the data keeps it whole).
        def short_reason = reason.lines.first.to_s.strip

        # "FAILED torquebox (7 cells, 3 configs): torquebox cannot run here: ..."
        def line = "FAILED #{where}: #{short_reason}"

        def to_h = { "server" => server, "reason" => reason, "labels" => labels, "cells" => cells }
      end

      def initialize(measurements)
        @measurements = measurements.reject(&:ok?)
      end

      def section
        list = to_a
        return nil if list.empty?

        Document::Section.new("failures", nil, [Document::Text.list(list.map(&:line))], list.map(&:to_h))
      end

      # One per server and reason, in plan order.
      def each(&)
        @measurements.group_by { |m| [m.server || m.label, self.class.normalize(m.reason)] }.map do |(server, reason), list|
          Failure.new(server, reason, list.map(&:label).uniq, list.map { |m| "#{m.endpoint} c=#{m.concurrency}" })
        end.each(&)
      end

      # A reason with the pids (and loopback ports) taken out ("exited before it was ready (exit 1)"),
      # so the same failure in several cells reads as one, and paths inside the
      # checkout made relative.
      def self.normalize(reason)
        reason.to_s.gsub(/#<Process::Status: pid \d+ ([^>]*)>/, '\1').gsub(/\bpid \d+/, "pid")
              .gsub(/\b(127\.0\.0\.1|localhost):\d+/, '\1:PORT')
              .gsub("#{Rackbench::ROOT}/", "").strip
      end

      # Which failures a report has stated already: the first mention of a
      # server's reason gives it, later ones point back to it. The article
      # format states them all at its top and hands its Notes to the formats
      # it embeds (FailureNotes#failure_notes=).
      class Notes
        def initialize
          @given = Set.new
        end

        def given!(measurements) = measurements.each { |m| @given << key(m) }
        def given?(measurement) = @given.include?(key(measurement))

        # The reason (its first line) the first time, nil once given.
        def reason(measurement)
          return nil if given?(measurement)

          @given << key(measurement)
          Failures.normalize(measurement.reason).lines.first.to_s.strip
        end

        # "not measured: REASON" the first time, "not measured (reason above)" after.
        def text(measurement)
          reason = reason(measurement)
          reason ? "not measured: #{reason}" : "not measured (reason above)"
        end

        private

        def key(measurement) = [measurement.server || measurement.label, Failures.normalize(measurement.reason)]
      end
    end

    # For the formats that print failed cells among measured ones (ab,
    # three_column, article): each server's reason once per report.
    module FailureNotes
      attr_writer :failure_notes

      def failure_notes = @failure_notes ||= Failures::Notes.new
    end
  end
end
