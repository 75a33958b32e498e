# frozen_string_literal: true

require "json"
require "socket"
require "uri"

module Rackbench
  # A real request of an endpoint: method, headers and a body (JSON or form),
  # with ids drawn in turn from a list where the path has ":id", or at random
  # (ids_order: random; seeded, so the same draws each run).
  #
  #   endpoints:
  #     - /
  #     - {path: "/items/:id", ids: [1, 2, 3]}
  #     - {path: "/items/:id", ids: [1, 2, 3, 4], ids_order: random}
  #     - {name: check, path: /items, method: HEAD}
  #     - {name: create, path: /items, method: POST, json: {item: {name: x}},
  #        headers: {Cookie: "session=abc"}, expect_status: 201, expect_body: '"name":"x"'}
  #
  # The verify step sends it once (#perform); the native engine sends it on
  # every request (#engine_args: -m, -H, --body, --path) and checks each
  # answer by the AnswerRule (AnswerRule#engine_args: --expect-status,
  # --expect-body), which holds expect_status and expect_body.
  class Request
    KEYS = %w[method headers body json form ids ids_order].freeze
    IDS_ORDERS = %w[turn random].freeze
    METHOD = /\A[A-Z]+\z/

    attr_reader :name, :method, :paths, :headers, :body, :expect_status, :expect_body

    # nil when the endpoint entry is valid, else what is wrong with it.
    def self.problem(entry)
      return nil unless entry.is_a?(Hash)

      bodies = entry.keys & %w[body json form]
      return "takes one of body, json or form, got #{bodies.join(" and ")}" if bodies.size > 1

      shape_problem(entry) || ids_problem(entry)
    end

    def self.shape_problem(entry)
      if entry.key?("method") && !METHOD.match?(entry["method"].to_s)
        return "method must be an HTTP method such as POST, got #{entry["method"].inspect}"
      end
      return "headers must be a mapping like {Cookie: \"a=b\"}" if entry.key?("headers") && !entry["headers"].is_a?(Hash)
      if entry.key?("body") && !entry["body"].is_a?(String)
        return "body must be a string (use json: or form: for structured bodies)"
      end
      return "form must be a mapping of fields" if entry.key?("form") && !entry["form"].is_a?(Hash)

      nil
    end

    def self.ids_problem(entry)
      if entry.key?("ids_order")
        order = entry["ids_order"]
        return "ids_order must be turn or random, got #{order.inspect}" unless IDS_ORDERS.include?(order)
        return "ids_order needs ids: [...]" unless entry.key?("ids")
      end
      return nil unless entry.key?("ids")
      return "ids must be a non-empty list" unless entry["ids"].is_a?(Array) && entry["ids"].any?

      entry["path"].to_s.include?(":id") ? nil : "ids need a path with :id, such as /items/:id"
    end

    def initialize(endpoint)
      @name = endpoint["name"] || endpoint["path"]
      @method = endpoint.fetch("method", "GET").to_s
      ids = endpoint["ids"]
      @ids = !ids.nil?
      @random_ids = endpoint["ids_order"] == "random"
      @paths = ids ? ids.map { |id| endpoint["path"].sub(":id", URI.encode_www_form_component(id.to_s)) } : [endpoint["path"]]
      @headers = (endpoint["headers"] || {}).to_h { |k, v| [k.to_s, v.to_s] }
      @body = encode_body(endpoint)
      @expect_status = endpoint["expect_status"]
      @expect_body = endpoint["expect_body"]&.to_s
    end

    def path = paths.first
    def random_ids? = @random_ids
    def plain_get? = method == "GET" && headers.empty? && body.nil? && !@ids

    # The request, sent once to target (its path replaced); [status, headers, body].
    def perform(target, timeout_s: 5, path: self.path)
      sock = target.unix? ? UNIXSocket.new(target.socket_path) : Socket.tcp(target.host, target.port, connect_timeout: timeout_s)
      sock.write(bytes(path))
      Readiness.parse(Readiness.read_all(sock, timeout_s))
    ensure
      sock&.close
    end

    def bytes(path = self.path)
      head = ["#{method} #{path} HTTP/1.1", "Host: localhost", "Connection: close"]
      head += headers.map { |k, v| "#{k}: #{v}" }
      head << "Content-Length: #{body.bytesize}" if body && headers.keys.none? { |k| k.casecmp?("content-length") }
      "#{head.join("\r\n")}\r\n\r\n#{body}"
    end

    # Options of rackbench-load that send this request and check each answer.
    def engine_args
      args = method == "GET" ? [] : ["--method", method]
      headers.each { |k, v| args += ["--header", "#{k}: #{v}"] }
      args += ["--body", body] if body
      args += paths.flat_map { |p| ["--path", p] } if @ids
      args += ["--path-order", "random"] if @random_ids
      args
    end

    private

    def encode_body(endpoint)
      if endpoint.key?("json")
        @headers["Content-Type"] ||= "application/json"
        JSON.generate(endpoint["json"])
      elsif endpoint.key?("form")
        @headers["Content-Type"] ||= "application/x-www-form-urlencoded"
        URI.encode_www_form(endpoint["form"])
      else
        endpoint["body"]
      end
    end
  end
end
