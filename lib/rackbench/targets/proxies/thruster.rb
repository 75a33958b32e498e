# frozen_string_literal: true

require_relative "base"

module Rackbench
  module Proxies
    # Thruster (the thruster gem), the HTTP/2 proxy Rails 8 puts in front of
    # Puma: gzip, X-Sendfile and a small HTTP cache in front of one server on
    # loopback TCP. bin/setup thruster installs the gem's prebuilt x86_64-linux
    # binary into vendor/thruster; rackbench runs that binary itself.
    #
    #   - {server: puma, threads: 5, proxy: {proxy: thruster}}
    #   - {server: puma, workers: 2, proxy: {proxy: thruster, gzip: false, x_sendfile: false}}
    #
    # Thruster has no config file: it reads its settings from its environment
    # (TARGET_PORT, HTTP_PORT, CACHE_SIZE, ...), so the recorded command is
    # `env NAME=VALUE ... thrust`. It also always wraps a command (`thrust
    # bin/rails server`) and leaves when that command does; the Deployment
    # starts the server itself (so it is sampled and stopped as every server
    # is), and Thruster wraps `sleep infinity`, which ends on the TERM
    # Thruster relays. Thruster listens on every interface (it has no setting
    # for the address); TLS stays off (no TLS_DOMAIN), so it fetches nothing.
    class Thruster < Base
      NAME = "thruster"
      GEM = "thruster"
      VERSION = "0.1.27"
      PLATFORM = "x86_64-linux"
      GEM_HOME = File.join(ROOT, "vendor", "thruster")
      WRAPPED = %w[sleep infinity].freeze
      knob :cache_size, :whole, min: 0, default: 64 * 1_048_576, doc: "CACHE_SIZE: bytes of its HTTP cache (public responses)"
      knob :max_cache_item_size, :whole, min: 0, default: 1_048_576, doc: "MAX_CACHE_ITEM_SIZE: the largest response it caches"
      knob :gzip, :boolean, default: true, doc: "GZIP_COMPRESSION_ENABLED: gzip responses for clients that accept it"
      knob :x_sendfile, :boolean, default: true, doc: "X_SENDFILE_ENABLED: serve the file an X-Sendfile answer names"
      knob :max_request_body, :whole, min: 0, default: 0, doc: "MAX_REQUEST_BODY: bytes (0: no limit)"
      knob :target_port, :whole, min: 1, max: 65_535, doc: "TARGET_PORT: the port its server listens on (default: a free one)"
      knob :log_requests, :boolean, default: false, doc: "LOG_REQUESTS: a log line per request (Thruster's default is on)"

      class << self
        def max_backends = 1
        def unix_backends? = false

        def gem_spec = Servers::Base.vendored_gem_spec(GEM_HOME, GEM, platform: PLATFORM)

        def path
          spec = gem_spec
          spec && File.join(spec.full_gem_path, "exe", PLATFORM, "thrust")
        end

        def installed? = !path.nil? && File.executable?(path)

        def unavailable_reason
          return nil if installed?

          "thruster #{VERSION} is not installed in vendor/thruster (`bin/setup thruster` runs: gem install " \
            "--install-dir vendor/thruster thruster -v #{VERSION} --platform #{PLATFORM})"
        end

        # The gem's version: the binary prints none.
        def version = installed? ? gem_spec.version.to_s : nil
      end

      # "thruster (gzip, x-sendfile)": what it does to the answers.
      def label
        features = [("gzip" if setting("gzip")), ("x-sendfile" if setting("x_sendfile"))].compact
        features << "cache #{setting("cache_size") / 1_048_576} MB" unless setting("cache_size") == 64 * 1_048_576
        "#{name} (#{features.empty? ? "plain" : features.join(", ")})"
      end

      def backend_port = setting("target_port")

      # Thruster's settings in the environment of the command it runs.
      def command(bind:, backends:, dir:)
        raise ConfigError, "proxy #{name}: no server to stand in front of" if backends.empty?
        raise ConfigError, "proxy #{name} listens on TCP only; the suite asked for bind: unix" if bind.unix?

        backend = backends.first
        ["env", *settings(bind, backend, dir).map { |k, v| "#{k}=#{v}" }, executable, *WRAPPED]
      end

      private

      def settings(bind, backend, dir)
        { "HTTP_PORT" => bind.port, "TARGET_PORT" => backend.port,
          "CACHE_SIZE" => setting("cache_size"), "MAX_CACHE_ITEM_SIZE" => setting("max_cache_item_size"),
          "GZIP_COMPRESSION_ENABLED" => setting("gzip"), "X_SENDFILE_ENABLED" => setting("x_sendfile"),
          "MAX_REQUEST_BODY" => setting("max_request_body"), "LOG_REQUESTS" => setting("log_requests"),
          "STORAGE_PATH" => File.join(dir, "thruster-storage"), "BAD_GATEWAY_PAGE" => File.join(dir, "thruster-502.html") }
      end
    end

    register("thruster", Thruster)
  end
end
