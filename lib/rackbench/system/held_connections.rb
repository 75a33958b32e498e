# frozen_string_literal: true

require "set"

module Rackbench
  # The connections a server's processes hold (Procfs.held_connections:
  # their sockets that do not listen), read again and again while Drain
  # waits. Which sockets listen comes from the kernel's TCP and Unix tables:
  # after a load, thousands of lines of closed connections (2,600 here, 4 ms
  # to read and as long again to scan). So each socket's answer is kept, a
  # socket not seen before counts as held, and the tables are read again
  # only when that count is above the fewest seen so far (or on the first
  # count). Every count above the fewest is thus exact; one at or below it
  # can only be too high by a socket that has begun to listen since it was
  # seen, and then the truth is lower still: a server that reads as drained
  # is drained. A socket's inode is not reused while it is held.
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
      read_listeners(inodes) if held(inodes) > @fewest || @fewest.infinite?
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
