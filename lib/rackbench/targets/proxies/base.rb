# frozen_string_literal: true

module Rackbench
  module Proxies
    # The contract of a proxy (balancer) adapter. A Deployment calls, in this order:
    #
    #   proxy = Proxies.fetch("nginx").new(config)  # config: the suite's proxy entry
    #   proxy.validate!                   # ConfigError on unknown keys or values
    #   klass.unavailable_reason          # nil, or why it cannot run here
    #   bind = proxy.bind(dir)            # where the proxy listens (loopback TCP by default)
    #   argv = proxy.command(bind:, backends: [Servers::Base::Bind], dir:)
    #                                     # writes its config file into dir, returns the
    #                                     # exact foreground argv (recorded verbatim)
    #   child = supervisor.spawn(argv, ...); Readiness.wait(bind.target)
    #   supervisor.stop(child, signal: proxy.stop_signal)
    #   proxy.label, klass.version        # for tables and provenance
    #
    # A subclass sets NAME, EXECUTABLE, BALANCES (suite name => its own directive
    # value, the first being the default), declares its knobs with `knob`
    # (Knobs; balancing_knob for balance) and implements #config_text and #argv.
    # Its config keeps pid, logs and temp files inside dir, never in /var.
    #
    #   proxy: {proxy: nginx, workers: 3}
    #   proxy: {proxy: lighttpd, balance: hash}
    #   proxy: {proxy: haproxy, balance: first, maxconn: 50}
    class Base
      include Knobs

      KEYS = %w[proxy port bind].freeze
      Bind = Servers::Base::Bind

      class << self
        # balance: one of BALANCES' names, the first by default.
        def balancing_knob = knob(:balance, :one_of, values: self::BALANCES.keys, doc: "how requests are spread")

        def proxy_name = self::NAME
        # The ways it balances (none for a proxy in front of one server).
        def balances = defined?(self::BALANCES) ? self::BALANCES.keys : []

        # How many server instances it fronts at most (nil: any number), and
        # whether it reaches them on Unix sockets: Thruster fronts one, on TCP.
        def max_backends = nil
        def unix_backends? = true

        def path = Executable.find(self::EXECUTABLE, also_in: Executable::SBIN)

        def installed? = !path.nil?

        # Why this proxy cannot run here, or nil.
        def unavailable_reason
          return nil if installed?

          "#{self::EXECUTABLE} is not installed (#{Extras.command(proxy_name)} installs Debian's #{self::PACKAGE})"
        end

        # The version its binary prints, read once per process.
        def version
          return nil unless installed?

          @version ||= Executable.version([path, *self::VERSION_ARGV], self::VERSION_PATTERN)
        end
      end

      attr_reader :config

      def initialize(config)
        @config = (config || {}).transform_keys(&:to_s)
      end

      def name = self.class.proxy_name
      def knob_owner = "proxy #{name}"
      def balance = setting("balance")

      def validate!
        reject_unknown_keys(KEYS + self.class.knobs)
        # the port is written into the proxy's config file: nothing but a port may get there
        if config.key?("port") && !Port.valid?(config["port"])
          raise config_error("port", "\"port\" #{Port::PROBLEM}, got #{config["port"].inspect}")
        end
        unless [nil, "tcp", "unix"].include?(config["bind"])
          raise config_error("bind", "bind must be tcp or unix, got #{config["bind"].inspect}")
        end

        validate_settings
        self
      end

      # ConfigError when a server entry's instances (count, on Unix sockets
      # or not) cannot stand behind this proxy.
      def validate_backends!(count, unix:)
        max = self.class.max_backends
        if max && count > max
          raise ConfigError.new("proxy #{name} fronts at most #{max} server instance#{"s" if max > 1}, got instances: #{count}",
                                key: "instances")
        end
        return unless unix && !self.class.unix_backends?

        raise ConfigError.new("proxy #{name} reaches its server over TCP only; the server has bind: unix", key: "bind")
      end

      # "nginx x3 (round-robin)": the proxy, its worker processes and its balancing.
      def label
        workers = config["workers"] ? " x#{config["workers"]}" : ""
        "#{name}#{workers} (#{balance})"
      end

      # Loopback TCP (free port unless the suite names one), or a Unix socket in dir.
      def bind(dir)
        return Bind.new(socket_path: SocketPath.for(dir, "#{name}.sock")) if config["bind"] == "unix"

        Bind.new(port: config["port"] || Servers::Base.free_port)
      end

      def stop_signal = "TERM"

      # The port its server must listen on when the proxy's entry names one
      # (Thruster's target_port); nil: any free port.
      def backend_port = nil

      def command(bind:, backends:, dir:)
        raise ConfigError, "proxy #{name}: no backends to balance" if backends.empty?

        path = File.join(dir, config_name)
        File.write(path, config_text(bind: bind, backends: backends, dir: dir))
        argv(path)
      end

      def config_name = "#{name}.conf"

      private

      def directive = self.class::BALANCES.fetch(balance)
      def executable = self.class.path || self.class::EXECUTABLE
      def root? = Process.euid.zero?
    end
  end
end
