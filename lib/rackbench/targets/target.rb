# frozen_string_literal: true

require "ipaddr"
require "uri"

module Rackbench
  # Where load goes: a TCP host:port or a Unix socket, plus a request path.
  # Only loopback and Unix sockets are allowed unless allow_remote is set.
  class Target
    LOOPBACK = [IPAddr.new("127.0.0.0/8"), IPAddr.new("::1/128")].freeze

    attr_reader :host, :port, :socket_path, :path

    def self.tcp(port, path = "/", host: "127.0.0.1")
      new(host: host, port: port, path: path)
    end

    def self.unix(socket_path, path = "/")
      new(socket_path: socket_path, path: path)
    end

    # Parses "http://127.0.0.1:9292/hello" or "unix:/tmp/s.sock:/hello".
    def self.parse(text, allow_remote: false)
      if text.start_with?("unix:")
        socket_path, path = text.delete_prefix("unix:").split(":", 2)
        return new(socket_path: socket_path, path: path || "/")
      end
      uri = URI.parse(text)
      raise ConfigError, "target #{text.inspect}: only http:// and unix: targets are supported" unless uri.scheme == "http"

      new(host: uri.hostname, port: uri.port, path: uri.request_uri, allow_remote: allow_remote)
    rescue URI::InvalidURIError => e
      raise ConfigError, "target #{text.inspect}: #{e.message}"
    end

    def initialize(host: nil, port: nil, socket_path: nil, path: "/", allow_remote: false)
      @host = host
      @port = port
      @socket_path = socket_path
      @path = path
      check_local! unless allow_remote || unix?
    end

    def unix?
      !@socket_path.nil?
    end

    def with_path(path)
      unix? ? Target.unix(socket_path, path) : Target.new(host: host, port: port, path: path, allow_remote: true)
    end

    def url
      unix? ? "unix:#{socket_path}:#{path}" : "http://#{url_host}:#{port}#{path}"
    end
    alias to_s url

    private

    def url_host
      host.include?(":") ? "[#{host}]" : host
    end

    def check_local!
      return if host == "localhost"

      addr = IPAddr.new(host.delete_prefix("[").delete_suffix("]"))
      return if LOOPBACK.any? { |net| net.include?(addr) }

      raise ConfigError, "target #{host} is not on this machine (loopback or unix socket); pass --allow-remote to load it"
    rescue IPAddr::InvalidAddressError
      raise ConfigError, "target host #{host.inspect} is not a loopback address; pass --allow-remote to load it"
    end
  end
end
