# frozen_string_literal: true

require_relative "../charts/specs"
require_relative "../charts/renderer"

module Rackbench
  module Reports
    # Writes the run's charts (the kinds its suite's article: charts: names,
    # see Charts::Specs) as SVG files into the run's folder, charts/, and
    # returns their paths, one a line. `rackbench run` calls it after a seed suite.
    #
    #   rackbench report RUN --format svg
    class Svg < Base
      def render
        dir = File.join(run["dir"], "charts")
        Charts::Renderer.new.render(Charts::Specs.new(run, cells).all, dir).join("\n")
      end
    end

    register("svg", Svg)
  end
end
