# frozen_string_literal: true

module Rackbench
  module Hosts
    # How far a host's clock is from this machine's: the host's time read over
    # the connection, against the middle of the round trip (the best of a few
    # tries: the shortest round trip bounds the error). Used to give every
    # load host the same start instant in its own clock.
    #
    #   Clock.offset(connection)  # => {"offset_s" => -0.0012, "round_trip_s" => 0.004}
    module Clock
      TRIES = 3

      module_function

      def offset(connection)
        TRIES.times.map { measure(connection) }.min_by { |m| m["round_trip_s"] }
      end

      def measure(connection)
        before = Time.now.to_r
        remote = Rational(connection.capture("date +%s%N").strip.to_i, 1_000_000_000)
        after = Time.now.to_r
        { "offset_s" => (remote - ((before + after) / 2)).to_f.round(6), "round_trip_s" => (after - before).to_f.round(6) }
      end

      # An instant of this machine's clock (Time) in a host's clock, as ns for the Wrapper.
      def remote_ns(local_time, offset_s) = ((local_time.to_r + offset_s.to_r) * 1_000_000_000).to_i
    end
  end
end
