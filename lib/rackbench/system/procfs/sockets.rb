# frozen_string_literal: true

module Rackbench
  # Procfs's readings of sockets (loaded with procfs.rb): who listens on a
  # TCP port, from /proc/net/tcp{,6} and the processes' open files. A
  # process whose files this user may not read (another user's, without
  # root) is not found.
  #
  #   Procfs.listening_pids(5432)   # => [812]: the postmaster
  module Procfs
    LISTEN_STATE = "0A"

    module_function

    # Pids holding a socket that listens on port (IPv4 or IPv6, any address).
    def listening_pids(port, proc_dir: DIR)
      inodes = %w[tcp tcp6].flat_map { |table| listening_inodes(read("#{proc_dir}/net/#{table}").to_s, port) }
      return [] if inodes.empty?

      links = inodes.map { |inode| "socket:[#{inode}]" }
      pids(proc_dir).select { |pid| open_files(pid, proc_dir).intersect?(links) }
    end

    # The inodes of the lines of a /proc/net/tcp table that listen on port:
    # "sl local_address rem_address st ... inode", the address "0100007F:1538".
    def listening_inodes(table, port)
      table.lines.drop(1).filter_map do |line|
        fields = line.split
        fields[9].to_i if fields[3] == LISTEN_STATE && fields[1].split(":").last.to_i(16) == port
      end
    end

    # What pid's file descriptors point to ("socket:[123]", "/var/log/x"), or [] when unreadable.
    def open_files(pid, proc_dir = DIR)
      dir = "#{proc_dir}/#{pid}/fd"
      Dir.children(dir).filter_map do |fd|
        File.readlink("#{dir}/#{fd}")
      rescue SystemCallError
        nil
      end
    rescue SystemCallError
      []
    end
  end
end
