# frozen_string_literal: true

require "json"

module Rackbench
  module Hosts
    # The load engine of a suite with load_hosts: the native engine run on
    # every load host at once against the server host's address, its
    # connections, threads, rate and request count split across the hosts,
    # each engine started at one agreed instant (LEAD_S ahead, in each host's
    # own clock through the offset measured when the run connected). Per-host JSON comes back through
    # each host's log (native-HOST.out in the cell's folder) and is merged
    # exactly (Result.merge), with each host's engine CPU (client_cpu) and its
    # whole machine's busy share over the window (HostCpu). The Window uses
    # it as it would the engine.
    #
    #   RemoteLoad.new(Engines.fetch("native").new, fleet).run(load, supervisor:, dir:)  # => Result
    class RemoteLoad
      LEAD_S = 1.0
      SATURATED_THREAD_SHARE = 0.9 # a load thread busy this share of a core: the client was the limit

      attr_reader :engine

      # A warning for each host whose busiest load thread used SATURATED_THREAD_SHARE of a core or more.
      def self.saturation_warnings(hosts)
        hosts.filter_map do |h|
          share = h.dig("client_cpu", "max_thread_share").to_f
          next if share < SATURATED_THREAD_SHARE

          "load host #{h["host"]}: client CPU saturated (a load thread at #{(share * 100).round} % of a core): " \
            "figures are a floor; add load hosts or client_threads"
        end
      end

      def initialize(engine, fleet)
        @engine = engine
        @fleet = fleet
      end

      def name = engine.name
      def version = engine.version
      def unavailable_reason = engine.unavailable_reason
      def warmup_in_run? = engine.warmup_in_run?
      def supports_unix? = false
      def supports_requests? = engine.supports_requests?
      def validate!(load) = engine.validate!(load)

      def run(load, supervisor:, dir:, cpus: nil, log_name: "#{name}.out") # rubocop:disable Lint/UnusedMethodArgument
        validate!(load)
        @fleet.check_target!(load.target)
        conns = @fleet.load_connections
        parts = split(load, conns.size)
        clocks = conns.map { |c| @fleet.clocks.fetch(c.host.name) }
        cpu_before = in_parallel(conns) { |c| HostCpu.read(c) }
        start_at = Time.now + LEAD_S
        children = conns.each_with_index.map do |conn, i|
          argv = [@fleet.engine_path(conn.host.name), *engine.command(parts[i], dir).drop(1)]
          conn.spawn(argv, name: "#{name} on #{conn.host.name}", log_path: File.join(dir, host_log(log_name, conn.host.name)),
                           start_at_ns: Clock.remote_ns(start_at, clocks[i]["offset_s"]))
        end
        wait(children, supervisor, LEAD_S + load.deadline_s)
        cpu_after = in_parallel(conns) { |c| HostCpu.read(c) }
        cpu_busy = cpu_after.zip(cpu_before).map { |after, before| after.busy_share_since(before) }
        results = children.each_with_index.map { |child, i| parse(child, parts[i]) }
        Result.merge(results.map(&:first), hosts: conns.each_with_index.map do |conn, i|
          { "host" => conn.host.name, "clock_offset_s" => clocks[i]["offset_s"], "round_trip_s" => clocks[i]["round_trip_s"],
            "clock_uncertainty_s" => clocks[i]["uncertainty_s"], "started_at_us" => (start_at.to_r * 1_000_000).to_i,
            "client_cpu" => results[i].last, "host_cpu_busy_share" => cpu_busy[i], "engine" => @fleet.engines[conn.host.name] }
        end).tap { |merged| merged.warnings.concat(self.class.saturation_warnings(merged.hosts)) }
      ensure
        children&.each { |c| supervisor.stop(c, grace_s: 2) if c.alive? }
      end

      # Connections, threads, rate and requests divided as evenly as whole numbers allow.
      def split(load, hosts)
        if load.concurrency < hosts
          raise ConfigError, "concurrency #{load.concurrency} is below the #{hosts} load hosts: each needs a connection"
        end

        Array.new(hosts) do |i|
          concurrency = share(load.concurrency, hosts, i)
          load.dup.tap do |part|
            part.concurrency = concurrency
            part.threads = share(load.threads, hosts, i).clamp(1, concurrency)
            part.rate = load.rate && (load.rate * concurrency.fdiv(load.concurrency)).round(3)
            part.requests = load.requests && [share(load.requests, hosts, i), 1].max
          end
        end
      end

      private

      # native-r1.out -> native-r1-load1.out
      def host_log(log_name, host) = log_name.sub(/(\.\w+)?\z/, "-#{host}\\1")

      def in_parallel(conns, &block) = conns.map { |c| Thread.new { block.call(c) } }.map(&:value)

      def share(total, parts, index) = (total / parts) + (index < total % parts ? 1 : 0)

      def wait(children, supervisor, timeout_s)
        deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + timeout_s
        while children.any?(&:alive?)
          if Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline
            children.each { |c| supervisor.stop(c, grace_s: 1) }
            raise ServiceError, "the load hosts' engines ran past their #{timeout_s.round}s deadline"
          end
          sleep 0.02
        end
      end

      # [Result, client_cpu] of one host's engine run.
      def parse(child, part)
        output = File.read(child.log_path)
        unless child.status.respond_to?(:success?) && child.status.success?
          raise ServiceError.new("#{child.name} failed (#{child.status.inspect})", log_tail: output.lines.last(10).join)
        end

        result = engine.parse(output, part, child.argv)
        json = output.lines.find { |l| l.start_with?("{") }
        [result, JSON.parse(json)["client_cpu"]]
      end
    end
  end
end
