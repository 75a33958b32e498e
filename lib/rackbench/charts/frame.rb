# frozen_string_literal: true

module Rackbench
  module Charts
    # What every chart spec shares: the Vega-Lite schema, the size, a title
    # with a "not measured: ..." subtitle, a white background, and the name
    # that becomes the SVG file name or the figure's data-name. Used by
    # Specs (the seeds' chart kinds) and the generic charts of the html page
    # (Scaling, Percentiles, Memory).
    #
    #   Frame.chart("hello-reqs", "/hello: req/s", { "mark" => "line", ... }, missing: ["thin"])
    #   # => {"name"=>"hello-reqs", "title"=>"/hello: req/s", "spec"=>{...}}
    module Frame
      SCHEMA = "https://vega.github.io/schema/vega-lite/v6.json"
      WIDTH = 520
      HEIGHT = 300
      # Vega-Lite cuts axis labels at 180 px; a label such as "mongrel (3
      # instances) via lighttpd (round-robin)" lost the part that differs.
      LABEL_LIMIT_PX = 420

      module_function

      def chart(name, title, body, missing: [], width: WIDTH, height: HEIGHT)
        subtitle = missing.empty? ? [] : ["not measured: #{missing.join(", ")}"]
        spec = { "$schema" => SCHEMA, "width" => width, "height" => height,
                 "title" => { "text" => title, "subtitle" => subtitle, "anchor" => "start" },
                 "background" => "white" }.merge(body)
        { "name" => name, "title" => title, "spec" => spec }
      end

      # The configs' colour: one per label, in plan order, the same in every chart of a page.
      def color(labels)
        { "field" => "config", "type" => "nominal", "sort" => labels, "scale" => { "domain" => labels },
          "legend" => { "labelLimit" => LABEL_LIMIT_PX } }
      end

      def slug(text) = Words.slug(text)
    end
  end
end
