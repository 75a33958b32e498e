# frozen_string_literal: true

require "json"
require "fileutils"

module Rackbench
  module Charts
    # Turns chart specs (Specs#all) into SVG files with Node and the Vega
    # packages installed in this folder by bin/setup (`npm ci`). Created by the
    # svg report; node runs through the Supervisor like every other process.
    #
    #   Renderer.new.render(specs, dir) # => ["/.../charts/hello-reqs.svg", ...]
    class Renderer
      DIR = __dir__
      SCRIPT = File.join(DIR, "render.mjs")
      TIMEOUT_S = 120

      # Why charts cannot be drawn here, or nil.
      def self.unavailable_reason
        return "node is not on PATH (bin/setup installs it)" unless Executable.available?("node")
        return "the Vega packages are not installed (run bin/setup, or npm ci in #{DIR})" unless installed?

        nil
      end

      def self.installed?
        %w[vega vega-lite].all? { |pkg| File.exist?(File.join(DIR, "node_modules", pkg, "package.json")) }
      end

      # The browser builds of Vega and Vega-Lite, for inlining into HTML.
      def self.browser_scripts
        [File.join(DIR, "node_modules", "vega", "build", "vega.min.js"),
         File.join(DIR, "node_modules", "vega-lite", "build", "vega-lite.min.js")].map { |f| File.read(f) }
      end

      def initialize(supervisor: Supervisor.new)
        @supervisor = supervisor
      end

      def render(specs, dir)
        reason = self.class.unavailable_reason
        raise ServiceError, "charts: #{reason}" if reason
        return [] if specs.empty?

        FileUtils.mkdir_p(dir)
        jobs = specs.map { |s| { "path" => File.join(dir, "#{s["name"]}.svg"), "spec" => s["spec"] } }
        jobs_path = File.join(dir, "charts.json")
        File.write(jobs_path, JSON.generate(jobs))
        output, status = @supervisor.capture(["node", SCRIPT, jobs_path], name: "charts", log_path: File.join(dir, "render.log"),
                                                                          timeout_s: TIMEOUT_S, chdir: DIR)
        unless status.success?
          raise ServiceError.new("charts: node failed (#{status.inspect})",
                                 log_tail: output.lines.last(10).join)
        end

        jobs.map { |j| j["path"] }
      end
    end
  end
end
