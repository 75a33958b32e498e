# frozen_string_literal: true

require "rbconfig"
require "socket"
require_relative "../../system/jemalloc"

module Rackbench
  module Servers
    # The contract of a server adapter. The Runner calls, in this order:
    #
    #   server = Servers.fetch("puma").new(config)  # config: the suite's entry (Hash)
    #   server.validate!                  # raises ConfigError on knobs it does not take
    #   server.installed?, server.version # for `rackbench servers` and provenance
    #   argv = server.command(app:, bind:, dir:)   # exact argv, recorded verbatim
    #   child = supervisor.spawn(argv, env: server.env, ...)
    #   Readiness.wait(bind.target)       # a real HTTP answer, no fixed sleep
    #   server.stop(supervisor, child)    # graceful signal, then the group is killed
    #
    # A subclass sets NAME, GEM (the gem whose version it reports), declares
    # the config keys it takes besides COMMON_KEYS with `knob` (Knobs: type,
    # bounds, default, meaning; read back with #setting), and implements
    # #command. What other commands need to know of it is declared here too,
    # so that adding a server is adding its file:
    #
    #   tunes({ "workers" => [1, 2, 4] }, fixed: { "model" => "hybrid" })  # what `rackbench tune` tries
    #   starter 2, "workers" => 2    # `rackbench init` lists it second when the app's Gemfile.lock has GEM
    class Base
      include Knobs

      # app, endpoints and concurrency shape the plan (see Plan), not the
      # server; env and setup are the entry's own needs (#entry_env, #setup).
      COMMON_KEYS = %w[server label bind port instances proxy app endpoints concurrency host yjit env setup].freeze

      # Where a server listens: a loopback TCP port or a Unix socket path; on
      # a suite's host (Hosts), that host's address (host).
      Bind = Struct.new(:port, :socket_path, :host, keyword_init: true) do
        def unix? = !socket_path.nil?
        def address = host || "127.0.0.1"

        def target(path = "/")
          return Target.unix(socket_path, path) if unix?

          host ? Target.new(host: host, port: port, path: path, allow_remote: true) : Target.tcp(port, path)
        end

        def to_s = unix? ? "unix:#{socket_path}" : "#{address}:#{port}"
      end

      class << self
        # Servers run by this Ruby can turn YJIT on (JRuby's cannot).
        def supports_yjit? = true

        # Seconds a start of this server typically takes to be ready on a
        # quiet machine, for a run's estimate before it starts (RunEstimate;
        # puma, unicorn and thin on the rack app: 0.5-2.0 s, median 0.84, on
        # this project's VM at load 3-4); a JVM's is longer.
        def typical_boot_s = 1.0
        # Seconds a stop of one of its deployments typically takes there.
        def typical_stop_s = 0.35
        def yjit_available? = defined?(RubyVM::YJIT) ? true : false

        # The configs `rackbench tune` tries (Tune::Space): knob => values,
        # and knobs held fixed meanwhile. Its boolean knobs are what --vary
        # turns on and off.
        def tunes(space, fixed: {})
          @tune_space = space.freeze
          @tune_fixed = fixed.freeze
        end

        attr_reader :tune_space, :starter_rank

        def tune_fixed = @tune_fixed || {}

        # Whether tune may try config (puma's preload and fork_worker need cluster mode).
        def tunable?(_config) = true

        # `rackbench init` lists this server, at rank, when the app's
        # Gemfile.lock has its gem, with these knobs.
        def starter(rank, knobs = {})
          @starter_rank = rank
          @starter_knobs = knobs.freeze
        end

        def starter_entry = { "server" => server_name }.merge(@starter_knobs || {})

        # What doctor knows of the server beside its knobs, declared in its
        # adapter (inherited, a subclass's own merged over): by_design:
        # {key => value} fixed by its design (unicorn's one thread); follows:
        # {key => [knob, value meaning true]} a default that follows another
        # knob; unsaid: {key => why} a knob default that does not say what the
        # server does; config_file: the app's own file doctor reads
        # ("config/puma.rb") and directives: {key => [pattern of a line,
        # ->(arguments, value) { setting }]} how; preloads_from: the version
        # from which workers preload by default. And what provenance records:
        # gems, the gems whose versions a run keeps (its GEM by default).
        #
        #   facts by_design: { "threads" => 1 }
        #   Servers.fetch("unicorn").facts[:by_design]  # => {"threads" => 1}
        def facts(**given)
          (@facts ||= {}).merge!(given)
          { gems: [gem_name].compact }.merge(declared_facts)
        end

        # The facts this class and its parents declared, the nearest winning.
        def declared_facts = (superclass.respond_to?(:declared_facts) ? superclass.declared_facts : {}).merge(@facts || {})

        def server_name = self::NAME
        def gem_name = self::GEM

        def installed?
          !gem_spec.nil?
        end

        def version
          gem_spec&.version&.to_s
        end

        def gem_spec
          Gem::Specification.find_by_name(gem_name)
        rescue Gem::MissingSpecError
          nil
        end

        # The newest gemspec of name installed in gem_home (a folder of vendor/
        # outside the app's bundle: itsi, mongrel, the JRuby servers, Thruster
        # of the proxies), for platform when given; nil when there is none.
        def vendored_gem_spec(gem_home, name = gem_name, platform: nil)
          Dir[File.join(gem_home, "specifications", "#{name}-[0-9]*.gemspec")]
            .filter_map { |f| Gem::Specification.load(f) }
            .select { |s| s.name == name && (platform.nil? || s.platform.to_s == platform) }.max_by(&:version)
        end

        # Why this server cannot run here, or nil when it can.
        def unavailable_reason
          return nil if installed?

          "gem #{gem_name} is not installed (#{Extras.command(server_name)} installs it in rackbench's checkout; " \
            "in your app, `bundle add #{gem_name}`)"
        end

        def supports_unix? = true

        # Whether the server starts from its gem's executable under the app's
        # bundle (Deployment: `bundle exec`); a JVM's, a vendored one or a
        # command runs as it is here.
        def runs_in_app_bundle? = !gem_name.nil?

        # Why this server cannot run for an app with bundle (an AppBundle, or
        # nil): asked of the app's bundle when the server runs in it.
        def unavailable_reason_in(bundle)
          return unavailable_reason unless bundle && runs_in_app_bundle?

          bundle.installed.unavailable_reason(gem_name)
        end
      end

      # The allocator, on every server: Debian's jemalloc preloaded, or
      # glibc malloc's arenas capped (MALLOC_ARENA_MAX), as Rails operators try first.
      knob :malloc, :one_of, values: %w[system jemalloc], doc: "jemalloc: LD_PRELOAD of Debian's libjemalloc2, checked mapped"
      knob :malloc_arena_max, :whole, min: 1, doc: "MALLOC_ARENA_MAX for glibc malloc (2 is the usual try)"

      attr_reader :config

      def initialize(config)
        @config = config.transform_keys(&:to_s)
      end

      def name = self.class.server_name
      def knob_owner = "server #{name}"

      def proxy_class = config["proxy"] && Proxies.fetch(config["proxy"]["proxy"])

      def validate!
        reject_unknown_keys(self.class.knobs + COMMON_KEYS)
        if config.key?("port") && !Port.valid?(config["port"])
          raise config_error("port", "\"port\" #{Port::PROBLEM}, got #{config["port"].inspect}")
        end

        instances = config.fetch("instances", 1)
        unless instances.is_a?(Integer) && instances.positive?
          raise config_error("instances", "\"instances\" must be a whole number > 0, got #{instances.inspect}")
        end
        if instances > 1 && !config["proxy"]
          raise config_error("instances", "\"instances\" > 1 needs a \"proxy\" in front of them")
        end

        validate_settings
        validate_needs
        validate_proxy
        validate_yjit
        validate_allocator
        if unix? && !self.class.supports_unix?
          raise ConfigError.new("server #{name} cannot listen on a Unix socket (bind: unix)", key: "bind")
        end

        self
      end

      # env: scalar values; setup: commands (strings).
      def validate_needs
        env = config.fetch("env", {})
        unless env.is_a?(Hash) && env.values.none? { |v| v.nil? || v.is_a?(Enumerable) }
          raise config_error("env", "\"env\" must map names to strings or numbers, like {MAX_THREADS: 5}, got #{env.inspect}")
        end

        setup = config.fetch("setup", [])
        return if setup.is_a?(Array) && setup.all? { |c| c.is_a?(String) && !c.strip.empty? }

        raise config_error("setup", "\"setup\" must be a list of commands, got #{setup.inspect}")
      end

      # The entry's own environment, merged over the suite's (env: {THREADS: 4}).
      def entry_env = config.fetch("env", {}).to_h { |k, v| [k.to_s, v.to_s] }

      # Commands run once, in the app's folder, before this entry's first start.
      def setup = config.fetch("setup", [])

      def validate_proxy
        return unless config["proxy"]
        raise config_error("proxy", "\"proxy\" must be a mapping like {proxy: nginx}") unless config["proxy"].is_a?(Hash)

        proxy = begin
          Proxies.fetch(config["proxy"]["proxy"]).new(config["proxy"]).validate!
        rescue ConfigError => e
          raise ConfigError.new(e.message, key: "proxy.#{e.key || "proxy"}")
        end
        proxy.validate_backends!(config.fetch("instances", 1), unix: unix?)
      end

      # yjit: true runs the server's Ruby with YJIT (RUBYOPT=--yjit), where this Ruby has it.
      def validate_yjit
        return unless config.key?("yjit")
        unless [true, false].include?(config["yjit"])
          raise config_error("yjit", "\"yjit\" must be true or false, got #{config["yjit"].inspect}")
        end
        return unless yjit?

        unless self.class.yjit_available?
          raise config_error("yjit", "\"yjit\" needs a Ruby built with YJIT; #{RUBY_DESCRIPTION} has none")
        end
        return if self.class.supports_yjit?

        raise ConfigError.new("server #{name} does not run on this Ruby, so \"yjit\" cannot apply", key: "yjit")
      end

      def yjit? = config["yjit"] == true

      # The environment that turns YJIT on, merged last over the server's and
      # the app bundle's (which may clear RUBYOPT): env is what they set.
      def yjit_env(env)
        return env unless yjit?

        base = env.key?("RUBYOPT") ? env["RUBYOPT"] : ENV.fetch("RUBYOPT", nil)
        env.merge("RUBYOPT" => [base, "--yjit"].compact.reject(&:empty?).join(" "))
      end

      def jemalloc? = setting("malloc") == "jemalloc"

      def validate_allocator
        return unless jemalloc? && Jemalloc.missing_reason

        raise config_error("malloc", "malloc: jemalloc, but #{Jemalloc.missing_reason}")
      end

      # The command with the allocator's environment in front (`env
      # LD_PRELOAD=... MALLOC_ARENA_MAX=2 ...`), so the recorded command says it.
      def allocator_argv(argv)
        vars = []
        vars << "LD_PRELOAD=#{Jemalloc.path}" if jemalloc?
        vars << "MALLOC_ARENA_MAX=#{setting("malloc_arena_max")}" if setting("malloc_arena_max")
        vars.empty? ? argv : ["env", *vars, *argv]
      end

      # Why malloc: jemalloc did not take in the started processes (pids), or nil.
      def allocator_problem(pids)
        unmapped = jemalloc? ? Jemalloc.unmapped(pids) : []
        "malloc: jemalloc, but #{Jemalloc::LIBRARY} is not mapped in pid #{unmapped.join(", ")}" unless unmapped.empty?
      end

      # "puma x2:8" in the notation of 003_766978340d4031d9.txt: workers:threads.
      def label
        return config["label"] if config["label"]

        text = [name, shape, *marks].compact.join(" ")
        text += " +yjit" if yjit?
        text += " +jemalloc" if jemalloc?
        text += " arenas=#{setting("malloc_arena_max")}" if setting("malloc_arena_max")
        text += " (#{config["instances"]} instances)" if config.fetch("instances", 1) > 1
        text += " (unix)" if unix?
        text += " via #{Proxies.fetch(config["proxy"]["proxy"]).new(config["proxy"]).label}" if config["proxy"]
        text += " [#{config["app"]}]" if config["app"]
        text
      end

      def shape
        w = config["workers"]
        t = config["threads"]
        return nil if w.nil? && t.nil?

        t ? "x#{w || 0}:#{t}" : "x#{w}"
      end

      # What an adapter's own knobs add to its label ("+quick-start" on a JVM).
      def marks = []

      def unix? = config["bind"].to_s == "unix"

      # Chooses where to listen: a socket in dir, the suite's port, or a free port.
      def bind(dir)
        return Bind.new(socket_path: SocketPath.for(dir, "#{name}.sock")) if unix?

        port = config["proxy"] ? Proxies.fetch(config["proxy"]["proxy"]).new(config["proxy"]).backend_port : config["port"]
        Bind.new(port: port || Servers::Base.free_port)
      end

      def env = {}

      # Signal for a graceful stop; the supervisor kills the group after the grace period.
      def stop_signal = "TERM"

      # Pids that belong to child but left its process tree (a daemonized
      # watchdog): the Sampler measures their trees too.
      def extra_pids(_child) = []

      def stop(supervisor, child)
        supervisor.stop(child, signal: stop_signal)
      end

      # A TCP port on 127.0.0.1 that nothing listens on right now.
      def self.free_port
        server = TCPServer.new("127.0.0.1", 0)
        server.addr[1]
      ensure
        server&.close
      end

      private

      def ruby = RbConfig.ruby

      # The gem's own executable, run with this Ruby: exact and recordable.
      def gem_bin(exe, gem = self.class.gem_name)
        [ruby, Gem.bin_path(gem, exe)]
      end

      # A server configured by a Ruby config file (unicorn, pitchfork): the
      # file rackbench writes into the deployment's folder, which first reads
      # the app's own (the config: knob, relative to the app's folder) so the
      # suite's knobs override it. Returns the file's path.
      def write_config_file(dir, name, app:, body:)
        own = config["config"] && File.expand_path(config["config"], File.dirname(app))
        path = File.join(dir, name)
        File.write(path, (own ? "instance_eval(File.read(#{own.inspect}), #{own.inspect})\n" : "") + body)
        path
      end
    end
  end
end
