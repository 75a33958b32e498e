# frozen_string_literal: true

# One endpoint of the bundled apps, as catalogue.rb declares it (its fields
# are described there), and what the apps need to mount it: its route as a
# match, a Regexp (Sinatra), Roda's matchers or Rails' params, and its
# handler called with the route's params; and what rackbench's checks read of
# it (Rackbench::Apps::Expectation.at, #sample_request): the one model of an
# endpoint, on both sides. Ruby 2.6 syntax: JRuby 9.3 loads it.
#
#   endpoint = Workloads.endpoint("sleep")   # route "/sleep/:ms"
#   endpoint.match("/sleep/20")              # => ["20"]
#   endpoint.call(["20"], {})                # => "slept 20 ms"
module Workloads
  # The media type of each kind of endpoint (catalogue.rb describes the kinds).
  CONTENT_TYPES = { plain: "text/plain", page: "text/html", file: "text/html", html: "text/html",
                    bytes: "application/octet-stream", sendfile: "application/octet-stream" }.freeze

  Endpoint = Struct.new(:name, :route, :kind, :handler, :expected, :sample, :purpose, :services, :http_method,
                        keyword_init: true) do
    def params
      @params ||= route.scan(/:(\w+)/).flatten
    end

    def content_type
      CONTENT_TYPES.fetch(kind)
    end

    # "GET", or "POST" for an upload: its handler gets the request body (an IO) last.
    def verb
      http_method || "GET"
    end

    def upload?
      verb == "POST"
    end

    # The route as an unanchored Regexp, one group per param (Sinatra's routes).
    def regexp
      @regexp ||= Regexp.new(route.split("/").map { |part| part.start_with?(":") ? "(\\d+)" : Regexp.escape(part) }.join("/"))
    end

    # The route as an anchored Regexp of a path without its query string.
    def pattern
      @pattern ||= Regexp.new("\\A#{regexp.source}\\z")
    end

    # The route's params (Strings) when path (without its query string) is
    # this endpoint's, else nil; a route without params is compared as a String.
    def match(path)
      return (path == route ? [] : nil) if params.empty?

      pattern.match(path)&.captures
    end

    # The route as Roda's matchers: "/sleep/:ms" => ["sleep", Integer].
    def segments
      route.split("/").drop(1).map { |part| part.start_with?(":") ? Integer : part }
    end

    # The handler's result for the route's params (Strings or Integers), the
    # query's parameters and, for an upload, the request body.
    def call(args, query = {}, input = nil)
      handler.call(*args.map(&:to_i), query, *(upload? ? [input] : []))
    end

    # The sample as a suite's endpoint entry (what `rackbench verify` sends,
    # Rackbench::Request): an upload's POST carries as many bytes as its path names.
    def sample_request
      return { "path" => sample } unless upload?

      { "path" => sample, "method" => "POST", "body" => "x" * sample[/\d+/].to_i,
        "headers" => { "Content-Type" => "application/octet-stream" } }
    end
  end
end
