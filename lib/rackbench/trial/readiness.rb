# frozen_string_literal: true

require "socket"

module Rackbench
  # Tells that a server is ready: it accepts a connection and answers an HTTP
  # request with a status line. Polls against a monotonic deadline, never a
  # fixed sleep, and gives up early if the server's process died.
  module Readiness
    DEFAULT_TIMEOUT_S = 30
    POLL_INTERVAL_S = 0.05

    # No byte of an answer came before the deadline (the request may still be
    # queued in the server): not a malformed answer.
    class NoAnswer < IOError; end

    module_function

    # Returns [status_code, headers_hash, body] of one GET, or raises SystemCallError/IOError.
    # keepalive: true asks for a persistent connection (and reads until the
    # response is complete), to see whether the server keeps it open.
    def get(target, timeout_s: 5, headers: {}, keepalive: false)
      sock = target.unix? ? UNIXSocket.new(target.socket_path) : Socket.tcp(target.host, target.port, connect_timeout: timeout_s)
      extra = headers.map { |k, v| "#{k}: #{v}\r\n" }.join
      conn = keepalive ? "" : "Connection: close\r\n"
      sock.write("GET #{target.path} HTTP/1.1\r\nHost: localhost\r\n#{extra}#{conn}\r\n")
      raw = read_all(sock, timeout_s, complete: keepalive)
      parse(raw)
    ensure
      sock&.close
    end

    def parse(raw)
      head, body = raw.split("\r\n\r\n", 2)
      raise IOError, "no HTTP response (#{raw.bytesize} bytes)" unless head&.start_with?("HTTP/")

      lines = head.split("\r\n")
      status = lines.shift.split[1].to_i
      headers = lines.to_h do |l|
        k, v = l.split(":", 2)
        [k.downcase, v.to_s.strip]
      end
      body = dechunk(body.to_s) if headers["transfer-encoding"]&.include?("chunked")
      [status, headers, body.to_s]
    end

    def dechunk(body)
      out = +""
      until body.empty?
        size_line, rest = body.split("\r\n", 2)
        size = size_line.to_i(16)
        break if size.zero? || rest.nil?

        out << rest.byteslice(0, size)
        body = rest.byteslice((size + 2)..) || ""
      end
      out
    end

    # Reads until EOF, or (complete: true) until the headers and a Content-Length body are in.
    # NoAnswer when not a byte came before the deadline.
    def read_all(sock, timeout_s, complete: false)
      buf = +""
      deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + timeout_s
      loop do
        left = deadline - Process.clock_gettime(Process::CLOCK_MONOTONIC)
        raise IOError, "no complete answer within #{timeout_s}s" if left <= 0 && !buf.empty?

        unless left.positive? && sock.wait_readable(left)
          raise NoAnswer, "no answer within #{format("%g", timeout_s.round(3))} s" if buf.empty?

          break
        end

        chunk = sock.read_nonblock(65_536, exception: false)
        break if chunk.nil?
        next if chunk == :wait_readable

        buf << chunk
        break if complete && complete_response?(buf)
      end
      buf
    end

    def complete_response?(buf)
      head, body = buf.split("\r\n\r\n", 2)
      return false unless body

      length = head[/^content-length:\s*(\d+)/i, 1]
      length ? body.bytesize >= length.to_i : body.end_with?("0\r\n\r\n")
    end

    # Waits until target answers any HTTP status. Raises ServiceError, its
    # message an ExitReason (the app's own error, the log's path relative to
    # log_root), if the child exits first or the deadline passes.
    def wait(target, child: nil, timeout_s: DEFAULT_TIMEOUT_S, app_dir: nil, log_root: nil)
      deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + timeout_s
      last_error = nil
      reason = child && ExitReason.new(child, app_dir: app_dir, log_root: log_root)
      loop do
        raise ServiceError.new(reason.exited("before it was ready"), log_tail: child.log_tail) if child && !child.alive?

        begin
          return get(target, timeout_s: 2)
        rescue SystemCallError, IOError, SocketError => e
          last_error = e
        end
        if Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline
          raise ServiceError.new(reason.not_ready(timeout_s, last_error&.message), log_tail: child.log_tail) if reason

          raise ServiceError, "#{target} not ready after #{timeout_s}s (last: #{last_error&.message})"
        end
        sleep POLL_INTERVAL_S
      end
    end
  end
end
