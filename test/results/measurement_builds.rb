# frozen_string_literal: true

module Rackbench
  # Counts the Measurements built while a block runs, by the position of the
  # cell row each is built from (nil: windows that are no cell's row), so a
  # test can say a command builds each cell's Measurement once:
  #
  #   builds = MeasurementBuilds.during { run_cli("report", ...) }   # => {1 => 1, 2 => 1}
  module MeasurementBuilds
    @counts = nil

    class << self
      def during
        @counts = Hash.new(0)
        yield
        @counts
      ensure
        @counts = nil
      end

      def count(cell) = @counts && (@counts[cell.is_a?(Hash) ? cell["position"] : nil] += 1)
    end

    # Prepended to Measurement's class: every build goes through new.
    module New
      def new(cell, *, **)
        MeasurementBuilds.count(cell)
        super
      end
    end
    Measurement.singleton_class.prepend(New)
  end
end
