# frozen_string_literal: true

module Rackbench
  # What a suite needs that this machine lacks, found before anything starts:
  # each server, proxy, service, load engine and bundled app that cannot run
  # here, with why, and the one command of rackbench's checkout that installs
  # them (each reason names its `bin/setup NAME`, Extras.command). The Runner
  # fails the cells of a server that cannot run; this says so first, and what
  # to run instead of finding out cell by cell.
  #
  #   preflight = Preflight.new(suite)
  #   preflight.missing   # => ["falcon: gem falcon is not installed (`bin/setup falcon` installs it ...)"]
  #   preflight.extras    # => ["falcon"]: what bin/setup takes to install them ([] : the core alone)
  #   preflight.command   # => "bin/setup falcon"; nil when bin/setup installs none of what is missing
  class Preflight
    # A bundled app's own framework gem, which its group installs (Gemfile).
    APP_GEMS = { "rails" => "railties", "sinatra" => "sinatra", "roda" => "roda" }.freeze

    def initialize(suite)
      @suite = suite
    end

    # "what: why" for each thing that cannot run here, each once.
    def missing
      @missing ||= (servers + proxies + services + engine + apps).compact.uniq
    end

    def extras = named.compact.reject(&:empty?).uniq

    def command
      return nil if !Extras.available? || named.compact.empty?

      ["bin/setup", *extras].join(" ")
    end

    private

    def named = missing.map { |line| Extras.named_in(line) }

    # A server that runs under the app's own bundle is that bundle's to provide
    # (the Runner asks it); one of rackbench's bundled apps runs on rackbench's gems.
    def servers
      @suite.server_configs.map do |config|
        server = Servers.fetch(config["server"])
        next if config["app"] || !bundled_app?(@suite["app"])

        server.unavailable_reason&.then { |why| "#{server.server_name}: #{why}" }
      end
    end

    def proxies
      @suite.server_configs.filter_map { |config| config.dig("proxy", "proxy") }.map do |name|
        Proxies.fetch(name).unavailable_reason&.then { |why| "#{name}: #{why}" }
      end
    end

    def services
      (@suite["services"] || []).map do |entry|
        klass = Services.fetch(entry["service"])
        klass.respond_to?(:unavailable_reason) ? klass.unavailable_reason&.then { |why| "#{entry["service"]}: #{why}" } : nil
      end
    end

    def engine
      name = @suite["engine"]
      [Engines.fetch(name).new.unavailable_reason&.then { |why| "engine #{name}: #{why}" }]
    end

    def apps
      [@suite["app"], *@suite.server_configs.map { |c| c["app"] }].compact.uniq.map do |app|
        gem = APP_GEMS[app] if bundled_app?(app)
        next unless gem && !installed?(gem)

        "app #{app}: gem #{gem} is not installed (#{Extras.command(app)} installs it)"
      end
    end

    def bundled_app?(app) = app.is_a?(String) && File.exist?(File.join(ROOT, "apps", app, "config.ru"))

    def installed?(gem)
      !Gem::Specification.find_by_name(gem).nil?
    rescue Gem::MissingSpecError
      false
    end
  end
end
