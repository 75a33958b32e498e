# frozen_string_literal: true

# The upstream HTTP stub that /network-io and /network-io-render call: a
# single-threaded event loop (IO.select) that answers every GET after a delay,
# as a remote site would, with an HTML page of an exact size. Many requests
# wait at once without a thread each, so it holds far more requests per second
# than the apps can send it. Started by Rackbench::Services::Upstream through
# the Supervisor; needs nothing but Ruby.
#
#   ruby server.rb --port 9000 --delay-ms 50 --body-bytes 16384
#   ruby server.rb --socket /tmp/upstream.sock
#   curl 'http://127.0.0.1:9000/?delay_ms=0&body_bytes=100'   # per-request overrides
require "optparse"
require "fileutils"
require "socket"

module RackbenchUpstream
  # The page it serves: <li> items (the data /network-io-render renders),
  # padded to exactly body_bytes.
  module Page
    HEAD = "<!DOCTYPE html>\n<html>\n<head><title>upstream</title></head>\n<body>\n<ul>\n"
    TAIL = "</ul>\n</body>\n</html>\n"

    def self.build(body_bytes)
      return "x" * body_bytes if body_bytes < HEAD.bytesize + TAIL.bytesize

      body = +HEAD
      index = 0
      loop do
        item = "<li>upstream item #{index += 1}</li>\n"
        break if body.bytesize + item.bytesize + TAIL.bytesize > body_bytes

        body << item
      end
      body << ("\n" * (body_bytes - body.bytesize - TAIL.bytesize)) << TAIL
    end
  end

  # One client connection: what it sent, what we still owe it.
  class Connection
    attr_reader :io, :input, :output
    attr_accessor :waiting, :close_after

    def initialize(io)
      @io = io
      @input = +""
      @output = +""
      @waiting = false
      @close_after = false
    end
  end

  # Accepts, parses, schedules each answer at now + delay, and writes it.
  class Server
    READ_BYTES = 16_384
    MAX_HEAD_BYTES = 16_384

    def initialize(listener, delay_ms:, body_bytes:)
      @listener = listener
      @delay_ms = delay_ms
      @body_bytes = body_bytes
      @connections = {}
      @timers = [] # [due_s, connection], sorted by due_s
      @responses = {}
      @stopping = false
    end

    def stop = @stopping = true

    def run
      until @stopping
        readable, writable = IO.select([@listener, *@connections.keys], writers, nil, select_timeout)
        readable&.each { |io| io.equal?(@listener) ? accept : receive(@connections[io]) }
        writable&.each { |io| (conn = @connections[io]) && flush(conn) }
        fire_due_timers
      end
    end

    private

    def now = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    def writers = @connections.each_value.reject { |c| c.output.empty? }.map(&:io)

    def select_timeout
      return 0.5 if @timers.empty? # wake up now and then to notice a stop

      (@timers.first[0] - now).clamp(0, 0.5)
    end

    def accept
      64.times do
        io = @listener.accept_nonblock(exception: false)
        return if io == :wait_readable

        @connections[io] = Connection.new(io)
      end
    end

    def receive(conn)
      return unless conn

      data = conn.io.read_nonblock(READ_BYTES, exception: false)
      return if data == :wait_readable
      return close(conn) if data.nil?

      conn.input << data
      parse(conn)
    rescue SystemCallError, IOError
      close(conn)
    end

    # Takes one request off the connection's input, unless one is still pending.
    def parse(conn)
      return if conn.waiting

      head_end = conn.input.index("\r\n\r\n")
      return close(conn) if head_end.nil? && conn.input.bytesize > MAX_HEAD_BYTES
      return unless head_end

      head = conn.input.slice!(0, head_end + 4)
      request_line, *header_lines = head.split("\r\n")
      _verb, target, version = request_line.to_s.split
      params = query(target.to_s)
      conn.close_after = close?(version, header_lines)
      conn.waiting = true
      schedule(conn, params.fetch("delay_ms", @delay_ms).to_f, params.fetch("body_bytes", @body_bytes).to_i)
    end

    def query(target)
      target.partition("?").last.split("&").to_h { |pair| pair.split("=", 2) }
    end

    def close?(version, header_lines)
      connection = header_lines.find { |l| l.downcase.start_with?("connection:") }.to_s.downcase
      version == "HTTP/1.0" ? !connection.include?("keep-alive") : connection.include?("close")
    end

    def schedule(conn, delay_ms, body_bytes)
      due = now + (delay_ms / 1000.0)
      at = @timers.bsearch_index { |(t, _)| t > due } || @timers.size
      @timers.insert(at, [due, conn, body_bytes])
    end

    def fire_due_timers
      t = now
      while (timer = @timers.first) && timer[0] <= t
        @timers.shift
        _, conn, body_bytes = timer
        next unless @connections.key?(conn.io)

        conn.output << response(body_bytes, conn.close_after)
        flush(conn)
      end
    end

    def response(body_bytes, close)
      @responses[[body_bytes, close]] ||= begin
        body = Page.build(body_bytes)
        "HTTP/1.1 200 OK\r\ncontent-type: text/html\r\ncontent-length: #{body.bytesize}\r\n" \
        "#{"connection: close\r\n" if close}\r\n#{body}".b.freeze
      end
    end

    def flush(conn)
      written = conn.io.write_nonblock(conn.output, exception: false)
      return if written == :wait_writable

      conn.output.slice!(0, written)
      return unless conn.output.empty?
      return close(conn) if conn.close_after

      conn.waiting = false
      parse(conn)
    rescue SystemCallError, IOError
      close(conn)
    end

    def close(conn)
      @connections.delete(conn.io)
      conn.io.close unless conn.io.closed?
    end
  end

  def self.main(argv)
    options = { delay_ms: 50, body_bytes: 16_384 }
    OptionParser.new do |o|
      o.on("--port PORT", Integer) { |v| options[:port] = v }
      o.on("--host HOST") { |v| options[:host] = v }
      o.on("--socket PATH") { |v| options[:socket] = v }
      o.on("--delay-ms MS", Float) { |v| options[:delay_ms] = v }
      o.on("--body-bytes BYTES", Integer) { |v| options[:body_bytes] = v }
    end.parse!(argv)
    listener = listen(options)
    server = Server.new(listener, delay_ms: options[:delay_ms], body_bytes: options[:body_bytes])
    %w[TERM INT].each { |sig| Signal.trap(sig) { server.stop } }
    $stdout.puts "upstream: listening on #{options[:socket] || "#{options[:host]}:#{options[:port]}"}, " \
                 "delay #{options[:delay_ms]} ms, body #{options[:body_bytes]} bytes"
    $stdout.flush
    server.run
  end

  def self.listen(options)
    if options[:socket]
      FileUtils.rm_f(options[:socket])
      return UNIXServer.new(options[:socket])
    end
    server = TCPServer.new(options.fetch(:host, "127.0.0.1"), options.fetch(:port))
    server.listen(1024)
    server
  end
end

RackbenchUpstream.main(ARGV) if $PROGRAM_NAME == __FILE__
