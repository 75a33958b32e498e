# frozen_string_literal: true

module Rackbench
  # Procfs's readings of sockets (loaded with procfs.rb): who listens on a
  # TCP port, from /proc/net/tcp{,6} and the processes' open files. A
  # process whose files this user may not read (another user's, without
  # root) is not found.
  #
  #   Procfs.listening_pids(5432)        # => [812]: the postmaster
  #   Procfs.held_connections([812, 813]) # => 2: sockets they hold that do not listen
  module Procfs
    LISTEN_STATE = "0A"
    # A /proc/net/tcp{,6} line in state LISTEN: "sl local_address rem_address st tx_queue:rx_queue tr:tm->when
    # retrnsmt uid timeout inode ...", capturing the inode.
    TCP_LISTENING = /^ *\d+: \h+:\h+ \h+:\h+ #{LISTEN_STATE} (?:\S+ +){5}(\d+)/
    UNIX_ACCEPTING = 0x10000 # __SO_ACCEPTCON in /proc/net/unix's Flags: a listening Unix socket

    module_function

    # Pids holding a socket that listens on port (IPv4 or IPv6, any address).
    def listening_pids(port, proc_dir: DIR) = holders(port_listener_inodes(port, proc_dir), proc_dir)

    # The inodes of the sockets that listen on port (IPv4 or IPv6, any address).
    def port_listener_inodes(port, proc_dir = DIR)
      %w[tcp tcp6].flat_map { |table| listening_inodes(read("#{proc_dir}/net/#{table}").to_s, port) }
    end

    # What listens on port besides the processes pids: [] when they hold every
    # socket listening there (or none listens), else the pids of the other
    # holders, or [nil] for a holder this user cannot see. Reads only pids'
    # files unless another socket listens there.
    #
    #   Procfs.foreign_listeners(41234, [900, 901])   # => [812]: another process answers on 41234
    def foreign_listeners(port, pids, proc_dir: DIR)
      others = port_listener_inodes(port, proc_dir) - socket_inodes_of(pids, proc_dir)
      return [] if others.empty?

      found = holders(others, proc_dir) - pids
      found.empty? ? [nil] : found
    end

    def holders(inodes, proc_dir)
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

    # How many sockets pids hold that do not listen: the connections inside
    # a server (a request being answered, or whose client left before its
    # answer), and the fixed ones it keeps (its own socketpairs). Each socket
    # counts once, however many processes share it (a forked worker inherits
    # its master's listener). A socket of another network namespace, or of
    # UDP, counts as held: it is not found among this one's listeners.
    def held_connections(pids, proc_dir: DIR)
      inodes = socket_inodes_of(pids, proc_dir)
      return 0 if inodes.empty?

      (inodes - listening_socket_inodes(proc_dir)).size
    end

    # The sockets the processes hold, each once (a forked worker shares its master's listener).
    def socket_inodes_of(pids, proc_dir = DIR) = pids.flat_map { |pid| socket_inodes(pid, proc_dir) }.uniq

    def socket_inodes(pid, proc_dir = DIR)
      open_files(pid, proc_dir).filter_map { |link| link[/\Asocket:\[(\d+)\]\z/, 1]&.to_i }
    end

    # The inodes of every listening socket: TCP (IPv4, IPv6) in state LISTEN;
    # Unix ("Num RefCount Protocol Flags Type St Inode Path") accepting.
    def listening_socket_inodes(proc_dir = DIR)
      tcp = %w[tcp tcp6].flat_map { |table| listening_tcp_inodes("#{proc_dir}/net/#{table}") }
      unix = read("#{proc_dir}/net/unix").to_s.lines.drop(1).filter_map do |line|
        fields = line.split
        fields[6].to_i if fields[3].to_i(16).anybits?(UNIX_ACCEPTING)
      end
      tcp + unix
    end

    # The inodes of a TCP table's listening sockets. The kernel lists them
    # first (its seq_file walks the listening hash before the established
    # one), so the table is read up to its first line in another state:
    # after a load it holds thousands of closed connections (1,486 lines
    # here: 8.4 ms of CPU to read whole, 0.12 ms up to its last listener),
    # and Drain and the sampler ask again and again.
    def listening_tcp_inodes(path)
      File.open(path) do |table|
        table.gets # the header
        table.each_line.lazy.map { |line| line[TCP_LISTENING, 1] }.take_while(&:itself).map(&:to_i).to_a
      end
    rescue SystemCallError
      []
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
