# frozen_string_literal: true

require "net/http"
require "socket"

module Workloads
  # The HTTP GET of /network-io and /network-io-render: to the upstream stub
  # that rackbench starts (lib/rackbench/targets/services/upstream.rb), never an outside
  # host. A new connection per request, as a call to another site would make.
  #
  #   RACKBENCH_UPSTREAM_URL=http://127.0.0.1:PORT/  or  unix:/path/upstream.sock:/
  module Upstream
    ENV_KEY = "RACKBENCH_UPSTREAM_URL"
    TIMEOUT_S = 10

    # Raised when no upstream is configured or it does not answer 200.
    class Unavailable < StandardError; end

    module_function

    def url
      ENV.fetch(ENV_KEY) { raise Unavailable, "#{ENV_KEY} is not set: name the upstream service in the suite" }
    end

    # The upstream page's body.
    def fetch
      target = url
      target.start_with?("unix:") ? fetch_unix(*target.delete_prefix("unix:").split(":", 2)) : fetch_http(URI(target))
    end

    def fetch_http(uri)
      response = Net::HTTP.start(uri.host, uri.port, open_timeout: TIMEOUT_S, read_timeout: TIMEOUT_S) do |http|
        http.request(Net::HTTP::Get.new(uri.request_uri))
      end
      raise Unavailable, "upstream #{uri} answered #{response.code}" unless response.code == "200"

      response.body
    end

    # Net::HTTP speaks TCP only, so over a Unix socket: one GET, Connection: close.
    def fetch_unix(socket_path, path = "/")
      raw = UNIXSocket.open(socket_path) do |sock|
        sock.write("GET #{path || "/"} HTTP/1.1\r\nHost: upstream\r\nConnection: close\r\n\r\n")
        sock.read
      end
      head, body = raw.split("\r\n\r\n", 2)
      return body if head&.start_with?("HTTP/1.1 200")

      raise Unavailable, "upstream unix:#{socket_path} answered #{head.to_s.lines.first.inspect}"
    end
  end
end
