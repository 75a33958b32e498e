# frozen_string_literal: true

module Workloads
  # The /cache workload: a get, and a set on a miss, through memcached (the
  # suite names the memcached service, which sets RACKBENCH_MEMCACHED to
  # "127.0.0.1:PORT" or a socket path). Dalli clients come from a Pool; they
  # speak memcached's meta protocol and store the string as it is (raw).
  #
  #   Workloads::Cache.visit  # => "cache memcached: hit item 42 (1024 bytes)"
  module Cache
    ENV_KEY = "RACKBENCH_MEMCACHED"
    KEYS = 100
    VALUE_BYTES = 1024

    # Raised when no memcached is configured.
    class Unavailable < StandardError; end

    module_function

    POOL = Pool.new do
      require "dalli"
      server = ENV.fetch(ENV_KEY) { raise Unavailable, "#{ENV_KEY} is not set: name the memcached service in the suite" }
      Dalli::Client.new(server, protocol: :meta, raw: true, socket_timeout: 5, compress: false)
    end

    def visit
      id = rand(1..KEYS)
      key = "rackbench:item:#{id}"
      POOL.with do |client|
        value = client.get(key)
        outcome = value ? "hit" : "miss"
        unless value
          value = format("item %<id>d ", id: id).ljust(VALUE_BYTES, ".")
          client.set(key, value)
        end
        "cache memcached: #{outcome} item #{id} (#{value.bytesize} bytes)"
      end
    end
  end
end
