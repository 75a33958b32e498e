# frozen_string_literal: true

require "test_helper"
require "socket"
require "tmpdir"

module Rackbench
  # This process's own sockets, real ones: listeners do not count as held, connections do.
  class ProcfsSocketsTest < Minitest::Test
    def setup
      @open = []
    end

    def teardown
      @open.each { |s| s.close unless s.closed? }
      super
    end

    def held = Procfs.held_connections([Process.pid])
    def keep(*sockets) = @open.concat(sockets).last

    def test_a_tcp_listener_is_not_a_held_connection
      before = held
      keep(TCPServer.new("127.0.0.1", 0))
      assert_equal before, held
    end

    # IPv4 and IPv6: /proc/net/tcp and tcp6.
    def test_each_end_of_a_tcp_connection_is_held
      %w[127.0.0.1 ::1].each do |address|
        server = keep(TCPServer.new(address, 0))
        before = held
        keep(TCPSocket.new(address, server.addr[1]), server.accept)
        assert_equal before + 2, held, address
      end
    end

    # The TCP tables are read up to their last listener: one opened after
    # many connections (each later in the kernel's table than the
    # listeners, whatever their state) is still found.
    def test_a_listener_opened_after_many_connections_is_found_among_the_listeners
      first = keep(TCPServer.new("127.0.0.1", 0))
      20.times { keep(TCPSocket.new("127.0.0.1", first.addr[1]), first.accept) }
      connection = inode(@open.last)
      %w[127.0.0.1 ::1].each do |address|
        late = keep(TCPServer.new(address, 0))
        assert_includes Procfs.listening_socket_inodes, inode(late), address
      end
      refute_includes Procfs.listening_socket_inodes, connection
    end

    # What listens on a port besides a set of processes: nothing when they
    # hold the listener, their holder when another process does.
    def test_a_listener_of_another_process_is_foreign_and_named_by_its_pid
      port = keep(TCPServer.new("127.0.0.1", 0)).addr[1]
      assert_empty Procfs.foreign_listeners(port, [Process.pid])
      assert_equal [Process.pid], Procfs.foreign_listeners(port, [Process.ppid])
      # Port 0 is never a listener's (a port just closed could be taken by a neighbour test's server).
      assert_empty Procfs.foreign_listeners(0, [Process.ppid]), "nothing listens there"
    end

    def inode(socket) = File.stat("/proc/self/fd/#{socket.fileno}").ino

    def test_a_unix_listener_is_not_held_and_its_accepted_connection_is
      Dir.mktmpdir do |dir|
        server = keep(UNIXServer.new(File.join(dir, "s")))
        before = held
        keep(UNIXSocket.new(File.join(dir, "s")), server.accept)
        assert_equal before + 2, held
      end
    end

    def test_a_connection_whose_client_left_is_still_held_until_closed
      server = keep(TCPServer.new("127.0.0.1", 0))
      before = held
      client = TCPSocket.new("127.0.0.1", server.addr[1])
      accepted = keep(server.accept)
      client.close
      assert_equal before + 1, held
      accepted.close
      assert_equal before, held
    end

    def test_a_socket_shared_by_two_processes_counts_once
      server = keep(TCPServer.new("127.0.0.1", 0))
      keep(TCPSocket.new("127.0.0.1", server.addr[1]))
      accepted = keep(server.accept)
      reader, writer = IO.pipe
      child = fork do
        reader.close
        writer.puts "ready"
        sleep 30
      end
      writer.close
      reader.gets
      alone = Procfs.held_connections([Process.pid])
      assert_equal alone, Procfs.held_connections([Process.pid, child])
      refute accepted.closed?
    ensure
      if child
        Process.kill("KILL", child)
        Process.wait(child)
      end
      reader&.close
    end
  end
end
