# frozen_string_literal: true

require "zlib"

module Rackbench
  module Apps
    # What one request must answer: status 200, the endpoint's media type,
    # and its body. endpoint is the catalogue's own entry (Workloads::Endpoint,
    # apps/shared/endpoint.rb: the one model of an endpoint, which the apps
    # mount and the checks read); body is what its expected proc gave for the
    # path: a String (the body must equal it), a Regexp (it must match) or a
    # Proc listing a body's problems.
    #
    #   Expectation.at(Workloads.endpoint("sleep"), "/sleep/20")  # => 200 text/plain "slept 20 ms", or nil
    class Expectation
      # The Expectation for a requested path (query string included), or nil if the path is not endpoint's.
      def self.at(endpoint, path, env = {})
        params = endpoint.match(path.split("?", 2).first) or return nil
        new(endpoint, path, endpoint.expected.call(params.map(&:to_i), env))
      end

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
