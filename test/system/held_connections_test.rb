# frozen_string_literal: true

require "test_helper"
require "socket"

module Rackbench
  # This process's own sockets, real ones, counted the way Drain counts a
  # server's: the kernel's tables read only when the sockets change.
  class HeldConnectionsTest < Minitest::Test
    def setup
      @open = []
      @held = HeldConnections.new
    end

    def teardown
      @open.each { |s| s.close unless s.closed? }
      super
    end

    def keep(*sockets) = @open.concat(sockets).last
    def count = @held.count([Process.pid])
    def exact = Procfs.held_connections([Process.pid])

    def test_it_counts_what_every_reading_of_the_tables_counts
      server = keep(TCPServer.new("127.0.0.1", 0))
      assert_equal exact, count
      client = keep(TCPSocket.new("127.0.0.1", server.addr[1]))
      accepted = keep(server.accept)
      assert_equal exact, count
      [client, accepted].each(&:close)
      assert_equal exact, count
    end

    def test_the_tables_are_read_again_only_when_more_sockets_are_held_than_the_fewest_seen
      server = keep(TCPServer.new("127.0.0.1", 0))
      3.times { count }
      assert_equal 1, @held.tables_read, "nothing changed: the kept answers"
      keep(TCPSocket.new("127.0.0.1", server.addr[1]), server.accept)
      count
      assert_equal 2, @held.tables_read, "a new connection: two more held"
      @open.pop(2).each(&:close)
      count
      assert_equal 2, @held.tables_read, "fewer sockets: the kept answers still hold"
    end

    def test_a_socket_seen_before_it_listened_is_read_again_once_more_are_held
      socket = keep(Socket.new(:INET, :STREAM))
      socket.bind(Addrinfo.tcp("127.0.0.1", 0))
      before = count
      socket.listen(5)
      assert_equal before, count, "kept: counted as held, as the fewest was"
      keep(TCPSocket.new("127.0.0.1", socket.local_address.ip_port), socket.accept.first)
      assert_equal exact, count, "two new sockets: the tables read again, the listener seen listening"
    end
  end
end
