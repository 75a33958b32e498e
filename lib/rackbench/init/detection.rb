# frozen_string_literal: true

module Rackbench
  module Init
    # What `rackbench init` can tell about an app from its files: the
    # framework, GET paths without parameters, the servers its Gemfile.lock
    # has, and what it could not detect (said, never guessed).
    #
    #   d = Detection.new("~/shop")
    #   d.framework   # "rails", "sinatra", "roda" or "rack"
    #   d.paths       # ["/", "/items", "/up"]
    #   d.servers     # ["puma", "unicorn"]
    #   d.notes       # ["routes with parameters left out: /items/:id, ..."]
    class Detection
      ROUTES_TIMEOUT_S = 120
      RAILS_ROUTE = %r{\A\s*(?:\S+\s+)?GET\s+(/\S*?)(?:\(\.:format\))?\s+\S+#\S+}

      attr_reader :dir, :notes

      def initialize(dir)
        @dir = File.expand_path(dir)
        @notes = []
        return if File.file?(config_ru)

        raise ConfigError,
              "#{dir}: no config.ru (rackbench serves Rack apps; run init in the app's folder)"
      end

      def config_ru = File.join(dir, "config.ru")
      def bundle = @bundle ||= AppBundle.for(config_ru)
      def gems = bundle ? bundle.gems : {}

      def framework
        @framework ||= if File.file?(File.join(dir, "config", "application.rb")) || gems.key?("railties") then "rails"
                       elsif gems.key?("sinatra") || sources.match?(/Sinatra::/) then "sinatra"
                       elsif gems.key?("roda") || sources.match?(/< Roda\b/) then "roda"
                       else "rack"
                       end
      end

      # The servers whose adapters offer themselves to a starter suite
      # (Servers::Base.starter), in their order, that the app's bundle has
      # installed here (not only listed in its Gemfile.lock: see #left_out).
      def servers
        @servers ||= begin
          found = locked_servers.reject { |name| left_out.key?(name) }
          if bundle && locked_servers.empty?
            @notes << "no app server in the Gemfile.lock: add one (`bundle add puma`) to benchmark under the app's bundle"
          end
          found
        end
      end

      # {server => why} for the servers of the Gemfile.lock the bundle does
      # not load here (an optional group, a `without`), with how to add them.
      def left_out
        @left_out ||= locked_servers.to_h { |name| [name, Servers.fetch(name).unavailable_reason_in(bundle)] }.compact
      end

      # GET paths without parameters, "/" first.
      def paths
        @paths ||= begin
          found = send(:"#{framework}_paths")
          (["/"] & found) + (found - ["/"]).sort
        end
      end

      private

      def locked_servers
        @locked_servers ||= Servers.all.select(&:starter_rank).sort_by(&:starter_rank)
                                   .select { |adapter| gems.key?(adapter.gem_name) }.map(&:server_name)
      end

      def sources
        @sources ||= Dir[File.join(dir, "{config.ru,*.rb,app/**/*.rb,lib/**/*.rb}")].first(200).map do |f|
          File.read(f)
        end.join("\n")
      end

      def rails_paths
        out = rails_routes
        unless out
          @notes << "`bin/rails routes` failed, so no routes were read: #{@routes_error}"
          return ["/"]
        end
        routes = out.lines.filter_map { |l| l[RAILS_ROUTE, 1] }.uniq
        with_params = routes.select { |r| r.include?(":") || r.include?("*") }
        if with_params.any?
          @notes << "routes with parameters left out: #{with_params.first(5).join(", ")}#{", ..." if with_params.size > 5}"
        end
        (routes - with_params).reject do |r|
          r.start_with?("/rails/", "/recede_historical_location", "/resume_historical_location", "/refresh_historical_location")
        end
      end

      # The output of `bin/rails routes`, or nil (the reason in @routes_error).
      def rails_routes
        finished = Supervisor.run(["bin/rails", "routes"], env: bundle ? bundle.env : {}, chdir: dir, timeout_s: ROUTES_TIMEOUT_S)
        return finished.output if finished.status.success?

        @routes_error = finished.output.lines.last(1).join.strip
        nil
      rescue SystemCallError, ServiceError => e
        @routes_error = e.message
        nil
      end

      def sinatra_paths
        routes = sources.scan(%r{^\s*get\s*\(?\s*["'](/[^"']*)["']}).flatten.uniq
        with_params = routes.grep(/[:*]/)
        @notes << "routes with parameters left out: #{with_params.join(", ")}" if with_params.any?
        routes -= with_params
        routes.empty? ? ["/"] : routes
      end

      def roda_paths
        @notes << "Roda's routing tree is code: only r.root and literal r.get/r.is strings are read; add the others by hand"
        found = sources.include?("r.root") ? ["/"] : []
        found + sources.scan(%r{r\.(?:get|is)\s*\(?\s*["']([^"'/][^"']*)["']\s*\)?\s*do}).flatten.map { |p| "/#{p}" }.uniq
      end

      def rack_paths
        @notes << "a plain Rack app has no route table: only / and the --path given were tried"
        ["/"]
      end
    end
  end
end
