# frozen_string_literal: true

require "set"

module Rackbench
  # The connections a server's processes hold (Procfs.held_connections:
  # their sockets that do not listen), read again and again while Drain
  # waits. Which sockets listen comes from the kernel's TCP and Unix tables:
  # after a load, thousands of lines of closed connections (2,600 here, 4 ms
  # to read and as long again to scan). So each socket's answer is kept, and
  # the tables are read again only when the processes hold a socket not seen
  # before, or more sockets held than the fewest seen so far (a kept answer
  # may then be stale: a socket seen before it listened). A socket's inode is
  # not reused while it is held.
  #
  #   held = HeldConnections.new
  #   held.count(tree_pids)   # => 2
  class HeldConnections
    def initialize(proc_dir: Procfs::DIR)
      @proc = proc_dir
      @listens = {}
      @fewest = Float::INFINITY
    end

    def count(pids)
      inodes = Procfs.socket_inodes_of(pids, @proc)
      read_listeners(inodes) if inodes.any? { |inode| !@listens.key?(inode) } || held(inodes) > @fewest
      held(inodes).tap { |n| @fewest = [@fewest, n].min }
    end

    # How many times the kernel's tables were read.
    attr_reader :tables_read

    private

    def held(inodes) = inodes.count { |inode| !@listens[inode] }

    def read_listeners(inodes)
      @tables_read = @tables_read.to_i + 1
      listening = Procfs.listening_socket_inodes(@proc).to_set
      @listens = inodes.to_h { |inode| [inode, listening.include?(inode)] }
    end
  end
end
