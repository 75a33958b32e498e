# frozen_string_literal: true

module Rackbench
  # The app's dependencies (Dependency: a PostgreSQL, a Redis) sampled
  # through one load window, each as the server is (Sampler: CPU, PSS,
  # processes), with where they ran: the CPUs they may run on and those they
  # were seen on. Created by Window around each repeat; what they used is
  # known to Noise, so it is never "other processes".
  #
  #   deps = DependencySampler.new([postgres]).start
  #   ... load ...
  #   deps.stop(from_s: 0.5)  # => {"postgres" => {"cpu_percent" => 38.0, "pss_max_bytes" => 25_165_824,
  #                           #                    "cpus_allowed" => [0, 1], "cpus_seen" => [1], ...}}
  #   deps.cpu_s              # CPU seconds they used over the whole window
  #   deps.pids               # every pid of their trees at the end
  class DependencySampler
    def initialize(dependencies, interval_s: 0.5)
      @dependencies = dependencies
      @interval_s = interval_s
      @samples = {}
    end

    # ServiceError when a dependency no longer runs.
    def start
      @samplers = @dependencies.to_h do |dep|
        roots = dep.root_pids
        [dep.name, [Sampler.new(root_pids: roots, interval_s: @interval_s).start, roots]]
      end
      self
    end

    # {name => summary} of the samples taken from from_s (a warm-up cut) on.
    def stop(from_s: 0)
      @samplers.to_h do |name, (sampler, roots)|
        samples = (@samples[name] = sampler.stop)
        @pids = (@pids || []) + sampler.tree_pids
        summary = Sampler.summarize(samples.select { |s| s.t_s >= from_s })
        [name, summary.merge("root_pids" => roots, "cpus_allowed" => Procfs.allowed_cpus(roots.first)).compact]
      end
    end

    def cpu_s = @samples.values.sum { |s| s.empty? ? 0 : s.last.cpu_s - s.first.cpu_s }
    def pids = @pids || []
  end
end
