# frozen_string_literal: true

module Rackbench
  module Hosts
    # How far a host's clock is from this machine's: the host's time read over
    # the connection, against the middle of the round trip (NTP's estimate; the
    # best of a few tries: the shortest round trip bounds the error, which is
    # at most half of it). Used to give every load host the same start instant
    # in its own clock, and to put the X-Request-Start stamps of a load host
    # into the server's clock (explain: true: the probe's queue time).
    #
    #   Clock.offset(connection)  # => {"offset_s" => -0.0012, "round_trip_s" => 0.004, "uncertainty_s" => 0.002}
    #   Clock.queue_correction_us(load_clock, server_clock)  # => what to add to arrival - stamp
    module Clock
      TRIES = 5

      module_function

      def offset(connection)
        TRIES.times.map { measure(connection) }.min_by { |m| m["round_trip_s"] }
      end

      def measure(connection)
        before = Time.now.to_r
        remote = Rational(connection.capture("date +%s%N").strip.to_i, 1_000_000_000)
        after = Time.now.to_r
        { "offset_s" => (remote - ((before + after) / 2)).to_f.round(6), "round_trip_s" => (after - before).to_f.round(6),
          "uncertainty_s" => ((after - before) / 2).to_f.round(6) }
      end

      # A request stamped in the load host's clock arrives in the server's:
      # queue = arrival - (stamp - (load - server offset)), so the correction
      # to add to arrival - stamp is the load host's offset less the server's,
      # in whole microseconds. server_clock: nil for a server on this machine.
      def queue_correction_us(load_clock, server_clock)
        ((load_clock.fetch("offset_s") - (server_clock ? server_clock.fetch("offset_s") : 0)) * 1_000_000).round
      end

      # An instant of this machine's clock (Time) in a host's clock, as ns for the Wrapper.
      def remote_ns(local_time, offset_s) = ((local_time.to_r + offset_s.to_r) * 1_000_000_000).to_i
    end
  end
end
