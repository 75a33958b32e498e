# frozen_string_literal: true

module Rackbench
  module Hosts
    # A host's whole-machine CPU use between two readings of its /proc/stat
    # (over its Connection): the share of all its CPUs' time that was busy,
    # as Procfs defines busy. RemoteLoad reads each load host before and
    # after the engines run.
    #
    #   before = HostCpu.read(conn) ... HostCpu.read(conn).busy_share_since(before)  # => 0.42
    HostCpu = Struct.new(:times) do
      def self.read(connection)
        new(Procfs.parse_cpu_line(connection.capture("head -1 /proc/stat")[/^cpu\s.*$/].to_s))
      end

      def busy_share_since(before) = (times - before.times).busy_share&.round(3)
    end
  end
end
