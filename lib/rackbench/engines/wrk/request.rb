# frozen_string_literal: true

module Rackbench
  module Engines
    # The Lua that makes wrk send a Request: method, headers and body on
    # wrk's table, and the paths (ids) in turn from a request() function.
    # Prepended to wrk's reporting script.
    #
    #   WrkRequest.lua(Request.new("path" => "/items", "method" => "POST", "json" => {}))
    module WrkRequest
      module_function

      def lua(request)
        lines = []
        lines << "wrk.method = #{string(request.method)}" unless request.method == "GET"
        request.headers.each { |k, v| lines << "wrk.headers[#{string(k)}] = #{string(v)}" }
        lines << "wrk.body = #{string(request.body)}" if request.body
        if request.paths.size > 1
          lines << "local rackbench_paths = {#{request.paths.map { |p| string(p) }.join(", ")}}"
          lines << "local rackbench_next = 0"
          lines << "request = function()"
          lines << "  rackbench_next = rackbench_next % #rackbench_paths + 1"
          lines << "  return wrk.format(nil, rackbench_paths[rackbench_next])"
          lines << "end"
        end
        lines.empty? ? "" : "#{lines.join("\n")}\n"
      end

      # A Lua string literal for any bytes: printable ASCII as is, the rest as \ddd.
      def string(text)
        body = text.to_s.bytes.map do |b|
          b.between?(0x20, 0x7e) && b != 0x22 && b != 0x5c ? b.chr : format("\\%03d", b)
        end
        "\"#{body.join}\""
      end
    end
  end
end
