# frozen_string_literal: true

module Rackbench
  # A TCP port as rackbench accepts it from a suite: a whole number from 1 to
  # 65535. Checked wherever a port is taken (Suite::Ranges, servers, proxies),
  # as it ends up in command lines and proxy config files.
  #
  #   Port.valid?(8080)      # => true
  #   Port.valid?("80; x")   # => false
  module Port
    RANGE = (1..65_535)
    PROBLEM = "must be a TCP port, a whole number from 1 to 65535"

    def self.valid?(value) = value.is_a?(Integer) && RANGE.cover?(value)
  end
end
