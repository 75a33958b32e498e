# frozen_string_literal: true

module Rackbench
  module Reports
    # A config in words, for the article formats: "puma x2:8" is 003's
    # workers:threads notation, which a reader of 001 or 004 has never seen.
    # Read from the cell's stored config; a config the suite labelled itself
    # keeps its label.
    #
    #   FullLabel.for(m)  # => "puma, 2 workers x 8 threads"
    #                     #    "thin, 4 instances on Unix sockets, via nginx (3 workers, round-robin)"
    module FullLabel
      module_function

      def for(measurement)
        config = measurement["config"]
        return measurement["label"] unless config.is_a?(Hash) && config["server"] && !config["label"]

        rate = measurement["offered_rate_per_s"]
        config = config.merge("rate" => rate) if rate # a rate sweep's level, last, as its knobs say it

        [[config["server"], processes(config)].compact.join(", "), *knobs(config), proxy(config["proxy"]), app(config)]
          .compact.join(", ")
      end

      DESCRIBED = %w[server label workers threads instances bind port proxy app].freeze

      # Every other knob as "name value", so two configs never read the same.
      def knobs(config)
        config.except(*DESCRIBED).filter_map { |k, v| "#{k.tr("_", " ")} #{v}" unless v.is_a?(Hash) || v.is_a?(Array) }
      end

      def processes(config)
        workers = config["workers"].to_i
        threads = config["threads"]
        instances = config["instances"].to_i
        words = []
        words << count(instances, "instance") if instances > 1
        words << count(workers, "worker") if workers.positive?
        words << count(threads, "thread") if threads
        text = words.join(" x ")
        text += instances > 1 ? " on Unix sockets" : " on a Unix socket" if config["bind"].to_s == "unix"
        text.strip.empty? ? nil : text.strip
      end

      def proxy(config)
        return nil unless config.is_a?(Hash)

        knobs = [config["workers"] && count(config["workers"], "worker"), config["balance"] || default_balance(config)].compact
        "via #{config["proxy"] || "a proxy"}#{" (#{knobs.join(", ")})" unless knobs.empty?}"
      end

      def app(config) = config["app"] && "#{config["app"]} app"

      def default_balance(config)
        config["proxy"] && Proxies.fetch(config["proxy"]).new(config).balance
      rescue ConfigError
        nil
      end

      def count(number, noun) = "#{number} #{noun}#{"s" unless number.to_i == 1}"
    end
  end
end
