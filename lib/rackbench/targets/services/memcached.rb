# frozen_string_literal: true

require_relative "base"

module Rackbench
  module Services
    # memcached from Debian's package, for /cache: one daemon on 127.0.0.1 or
    # a Unix socket, in the foreground, stopped with the run. The apps find it
    # in RACKBENCH_MEMCACHED ("127.0.0.1:PORT" or the socket's path).
    #
    #   services:
    #     - {service: memcached, memory_mb: 64, threads: 4}
    class Memcached < Base
      NAME = "memcached"
      ENV_KEY = "RACKBENCH_MEMCACHED"
      # memcached will not run as root without -u, and it drops to that user
      # before it binds a Unix socket, in a run folder only root may enter: so as
      # root it is told to stay root (it listens on loopback or that socket only).
      RUN_AS = "root"
      knob :memory_mb, :whole, min: 1, default: 64, doc: "item memory (MB)"
      knob :threads, :whole, min: 1, default: 4, doc: "worker threads"
      knob :connections, :whole, min: 1, default: 4096, doc: "simultaneous connections it accepts"

      def self.executable = Executable.find("memcached")

      def self.unavailable_reason
        "memcached is not on PATH (#{Extras.command(NAME)} installs Debian's memcached)" unless executable
      end

      def start(supervisor, dir)
        validate!
        why = self.class.unavailable_reason
        raise ServiceError, "memcached cannot run here: #{why}" if why

        @address = unix? ? SocketPath.for(dir, "memcached.sock") : "127.0.0.1:#{free_port}"
        child = launch(supervisor, [self.class.executable, *listen_args, "-m", setting(:memory_mb), "-t", setting(:threads),
                                    "-c", setting(:connections), *user_args], dir)
        wait_ready(child) { version_line&.start_with?("VERSION ") }
        { ENV_KEY => @address }
      rescue StandardError
        stop(supervisor)
        raise
      end

      # memcached's answer to "version", e.g. "VERSION 1.6.18".
      def version_line
        sock = unix? ? UNIXSocket.new(@address) : TCPSocket.new(*@address.split(":"))
        sock.write("version\r\n")
        sock.wait_readable(2) && sock.gets&.chomp
      ensure
        sock&.close
      end

      private

      def listen_args
        unix? ? ["-s", @address, "-a", "0666"] : ["-l", "127.0.0.1", "-p", @address.split(":").last, "-U", "0"]
      end

      def user_args = Process.uid.zero? ? ["-u", RUN_AS] : []
    end

    register("memcached", Memcached)
  end
end
