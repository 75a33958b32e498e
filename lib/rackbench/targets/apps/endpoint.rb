# frozen_string_literal: true

require "zlib"

module Rackbench
  module Apps
    # One endpoint of the bundled apps, as Apps.endpoints reads it from the
    # catalogue (apps/shared/catalogue.rb): the paths it takes, the path
    # `rackbench verify` requests, the services it needs, and how to tell a
    # right answer from a wrong one.
    #
    #   Endpoint.new("fibonacci", pattern: %r{\A/fibonacci/(\d+)\z}, sample: "/fibonacci/20",
    #                content_type: "text/plain", purpose: "CPU work") { |m, _env| "fibonacci(...)" }
    #
    # The block gives the expected body for a path's match: a String (the body
    # must equal it), a Regexp (the body must match it), or a Proc that returns
    # a list of problems with the body.
    class Endpoint
      attr_reader :name, :pattern, :sample, :content_type, :purpose, :services, :http_method

      def initialize(name, pattern:, sample:, content_type:, purpose:, services: [], http_method: "GET", &expected_body)
        @name = name
        @pattern = pattern
        @sample = sample
        @content_type = content_type
        @purpose = purpose
        @services = services
        @http_method = http_method
        @expected_body = expected_body
      end

      # The sample as a suite's endpoint entry (Request): an upload's POST
      # carries as many bytes as its path names.
      def sample_request
        return { "path" => sample } unless http_method == "POST"

        bytes = sample[/\d+/].to_i
        { "path" => sample, "method" => "POST", "body" => "x" * bytes,
          "headers" => { "Content-Type" => "application/octet-stream" } }
      end

      # The Expectation for a requested path (query string included), or nil if
      # the path is not this endpoint's.
      def expectation(path, env = {})
        route, query = path.split("?", 2)
        match = pattern.match(route)
        match && Expectation.new(self, path, @expected_body.call(match, query.to_s, env))
      end
    end

    # What one request must answer: status 200, the endpoint's media type, and its body.
    class Expectation
      attr_reader :endpoint, :path, :body

      def initialize(endpoint, path, body)
        @endpoint = endpoint
        @path = path
        @body = body
      end

      # Every way the answer differs from the expected one; empty when it is right.
      def problems(status, headers, body)
        body = decoded(headers, body)
        found = []
        found << "status #{status}, expected 200" unless status == 200
        type = headers["content-type"].to_s.split(";").first.to_s.strip.downcase
        found << "content type #{type.inspect}, expected #{endpoint.content_type.inspect}" unless type == endpoint.content_type
        found + body_problems(body.to_s)
      end

      def describe
        shown = body.is_a?(Proc) ? "its page" : body.inspect
        "200 #{endpoint.content_type} #{shown.length > 60 ? "#{shown[0, 57]}..." : shown}"
      end

      private

      def body_problems(actual)
        case body
        when String then actual == body ? [] : ["body #{clip(actual)}, expected #{clip(body)}"]
        when Regexp then body.match?(actual) ? [] : ["body #{clip(actual)} does not match #{body.inspect}"]
        else body.call(actual)
        end
      end

      # The body as the app wrote it: a proxy's gzip undone (an answer to Accept-Encoding: gzip).
      def decoded(headers, body)
        return body unless headers["content-encoding"].to_s.strip.casecmp?("gzip")

        Zlib.gunzip(body.to_s)
      rescue Zlib::Error => e
        "(content-encoding gzip, but the body does not gunzip: #{e.message})"
      end

      def clip(text) = (text.length > 80 ? "#{text[0, 77]}..." : text).inspect
    end
  end
end
