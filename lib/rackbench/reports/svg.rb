# frozen_string_literal: true

require_relative "../charts/page"
require_relative "../charts/renderer"
require_relative "../charts/tune"

module Rackbench
  module Reports
    # Writes the run's charts (those of the html page, Charts::Page: the ones
    # the run's shape calls for, and the kinds its suite's article: charts:
    # names) as SVG files into the run's folder, charts/, and returns their
    # paths, one a line. `rackbench run` calls it after a seed suite. A tune
    # run's charts are its own (Charts::Tune).
    #
    #   rackbench report RUN --format svg
    class Svg < Base
      def render
        dir = File.join(run["dir"], "charts")
        tune = Charts::Tune.new(run, cells).charts
        Charts::Renderer.new.render(tune.empty? ? Charts::Page.new(run, cells).all : tune, dir).join("\n")
      end
    end

    register("svg", Svg)
  end
end
