# frozen_string_literal: true

module Workloads
  # Connections (database, memcached) for whoever is serving a request: a
  # thread (puma, webrick), a process (unicorn) or a fiber (falcon). A request
  # takes one, or opens one when all are busy, and gives it back; one that
  # raised is closed, not reused. One pool per process, so a forked worker
  # never shares its parent's sockets.
  #
  #   POOL = Pool.new { SQLite3::Database.new(path) }
  #   POOL.with { |db| db.execute("SELECT 1") }
  class Pool
    def initialize(&open)
      @open = open
      @free = {}
      @lock = Mutex.new
    end

    def with
      conn = checkout
      result = yield conn
      checkin(conn)
      result
    rescue StandardError
      conn.close if conn.respond_to?(:close)
      raise
    end

    private

    def free_list
      @free[Process.pid] ||= []
    end

    def checkout
      @lock.synchronize { free_list.pop } || @open.call
    end

    def checkin(conn)
      @lock.synchronize { free_list.push(conn) }
    end
  end
end
