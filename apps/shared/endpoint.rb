# frozen_string_literal: true

# One endpoint of the bundled apps, as catalogue.rb declares it (its fields
# are described there), and what the apps need to mount it: its route as a
# match, a Regexp (Sinatra), Roda's matchers or Rails' params, and its
# handler called with the route's params. Ruby 2.6 syntax: JRuby 9.3 loads it.
#
#   endpoint = Workloads.endpoint("sleep")   # route "/sleep/:ms"
#   endpoint.match("/sleep/20")              # => ["20"]
#   endpoint.call(["20"], {})                # => "slept 20 ms"
module Workloads
  Endpoint = Struct.new(:name, :route, :kind, :handler, :expected, :sample, :purpose, :services, keyword_init: true) do
    def params
      @params ||= route.scan(/:(\w+)/).flatten
    end

    def content_type
      kind == :plain ? "text/plain" : "text/html"
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

    # The handler's result for the route's params (Strings or Integers) and the query's parameters.
    def call(args, query = {})
      handler.call(*args.map(&:to_i), query)
    end
  end
end
