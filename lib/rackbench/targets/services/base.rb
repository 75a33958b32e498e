# frozen_string_literal: true

require "rbconfig"
require "socket"

module Rackbench
  module Services
    # What every backing service shares. The Runner (once per run) and
    # `rackbench verify` create one per suite entry and call, in this order:
    #
    #   service = Services.fetch("memcached").new({"service"=>"memcached", "bind"=>"unix"})
    #   service.validate!                    # ConfigError on a key or value it does not take
    #   env = service.start(supervisor, dir) # spawns through the Supervisor, waits until ready
    #   service.commands                     # argv of each process, for provenance
    #   service.stop(supervisor)             # graceful signal, then the group is killed
    #
    # A subclass sets NAME, declares its keys with `knob` (Knobs: type,
    # bounds, default, meaning; read back with #setting), and implements
    # #start (spawning with #launch and waiting with #wait_ready).
    class Base
      include Knobs

      COMMON_KEYS = %w[service bind].freeze
      BINDS = %w[tcp unix].freeze
      DEFAULT_READY_TIMEOUT_S = 30

      def self.service_name = self::NAME

      attr_reader :config, :children

      def initialize(config = {})
        @config = config.transform_keys(&:to_s)
        @children = []
      end

      def name = self.class.service_name
      def knob_owner = "service #{name}"

      def validate!
        reject_unknown_keys(COMMON_KEYS + self.class.knobs)
        raise config_error("bind", "\"bind\" must be tcp or unix, got #{config["bind"].inspect}") unless BINDS.include?(bind)

        validate_settings
        self
      end

      def bind = config.fetch("bind", "tcp").to_s
      def unix? = bind == "unix"
      def commands = children.map(&:argv)

      def stop_signal = "TERM"

      def stop(supervisor)
        children.reverse_each { |child| supervisor.stop(child, signal: stop_signal) }
        children.clear
      end

      private

      def launch(supervisor, argv, dir, log_name: "#{name}.log", chdir: dir)
        child = supervisor.spawn(argv, name: "service #{name}", log_path: File.join(dir, log_name), chdir: chdir)
        children << child
        child
      end

      # Polls the block until it is truthy, against a monotonic deadline; raises
      # ServiceError with the log tail if the child exits or time runs out.
      def wait_ready(child, timeout_s: DEFAULT_READY_TIMEOUT_S)
        deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + timeout_s
        last_error = nil
        reason = ExitReason.new(child, name: name)
        loop do
          raise ServiceError.new(reason.exited("before it was ready"), log_tail: child.log_tail) unless child.alive?

          begin
            return if yield
          rescue SystemCallError, IOError => e
            last_error = e
          end
          if Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline
            raise ServiceError.new(reason.not_ready(timeout_s, last_error&.message), log_tail: child.log_tail)
          end

          sleep 0.05
        end
      end

      def free_port = Servers::Base.free_port
      def ruby = RbConfig.ruby
    end
  end
end
