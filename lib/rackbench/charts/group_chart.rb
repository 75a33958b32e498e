# frozen_string_literal: true

require_relative "frame"

module Rackbench
  module Charts
    # What the charts of one group of measurements (an endpoint, or an
    # endpoint at one concurrency) start from: the group's title, its
    # measurements and the configs' labels in page order. Scaling, Percentiles and RankedBars build on it.
    class GroupChart
      def initialize(title, measurements, labels)
        @title = title
        @measurements = measurements
        @labels = labels
      end

      private

      def measured = @measurements.select(&:ok?)

      # The configs this chart draws, in page order: a legend lists no config the chart lacks.
      def shown_labels = @labels & measured.map(&:label)

      # The configs of the group that were not measured, for the subtitle.
      def missing = @measurements.reject(&:ok?).map(&:label).uniq
    end
  end
end
