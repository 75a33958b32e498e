# frozen_string_literal: true

require "json"

module Rackbench
  module Reports
    # JSON: the run and every cell as stored, engine results and resources included.
    class Json < Base
      def render
        "#{JSON.pretty_generate({ "run" => run, "cells" => cells })}\n"
      end
    end

    register("json", Json)
  end
end
