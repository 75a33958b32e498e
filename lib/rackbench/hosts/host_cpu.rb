# frozen_string_literal: true

module Rackbench
  module Hosts
    # A host's whole-machine CPU use between two readings of its /proc/stat
    # (over its Connection): the share of all its CPUs' time that was busy.
    # RemoteLoad reads each load host before and after the engines run.
    #
    #   before = HostCpu.read(conn) ... HostCpu.read(conn).busy_share_since(before)  # => 0.42
    HostCpu = Struct.new(:busy_ticks, :total_ticks) do
      # cpu  user nice system idle iowait irq softirq steal ...
      def self.read(connection)
        fields = connection.capture("head -1 /proc/stat")[/^cpu\s.*$/].to_s.split.drop(1).map(&:to_i)
        idle = fields[3].to_i + fields[4].to_i
        total = fields.first(8).sum
        new(total - idle, total)
      end

      def busy_share_since(before)
        total = total_ticks - before.total_ticks
        total.positive? ? (busy_ticks - before.busy_ticks).fdiv(total).round(3) : nil
      end
    end
  end
end
