# frozen_string_literal: true

module Rackbench
  module CLI
    # The machine a capacity figure is priced for (--memory, --price, --cpus),
    # shared by run, report and explain; the values land in `capacity` under
    # the names Capacity reads.
    module CapacityOptions
      module_function

      def define(parser, capacity)
        parser.on("--memory SIZE", "capacity: how many workers fit in SIZE (512MB, 2GB)") { |v| capacity["memory"] = v }
        parser.on("--price HOURLY", Float, "capacity: the machine's price per hour, for a cost per million requests") do |v|
          capacity["price_per_hour"] = v
        end
        parser.on("--cpus N", Integer, "capacity: the machine's CPUs, for the cost per million requests") do |v|
          capacity["cpus"] = v
        end
      end
    end
  end
end
