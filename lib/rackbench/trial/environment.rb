# frozen_string_literal: true

require "etc"
require "socket"

module Rackbench
  # Provenance: the machine, kernel, Ruby and gem versions a run was measured
  # on: the apps' frameworks and each server adapter's gem (its own fact).
  module Environment
    FRAMEWORK_GEMS = %w[rack rackup sinatra roda rails].freeze

    module_function

    def capture
      {
        "hostname" => Socket.gethostname,
        "cpu_model" => Procfs.cpu_model,
        "cores" => Etc.nprocessors,
        "memory_bytes" => Procfs.memory_bytes,
        "kernel" => Procfs.kernel_release,
        "os" => os_release,
        "ruby" => RUBY_DESCRIPTION,
        "rackbench" => VERSION,
        "gems" => gem_versions,
        "proxies" => proxy_versions,
        "loadavg" => Procfs.loadavgs
      }
    end

    def os_release
      File.read("/etc/os-release")[/^PRETTY_NAME="?([^"\n]+)/, 1]
    rescue Errno::ENOENT
      nil
    end

    # Each installed proxy's version, as its adapter reads it (nginx -v, Thruster's gem).
    def proxy_versions = Proxies.all.to_h { |klass| [klass.proxy_name, klass.version] }.compact

    # The installed version of each gem a run may use (those not installed left out).
    def gem_versions
      gems.to_h do |g|
        spec = Gem::Specification.find_all_by_name(g).max_by(&:version)
        [g, spec&.version&.to_s]
      end.compact
    end

    def gems = (FRAMEWORK_GEMS + Servers.names.flat_map { |n| Servers.fetch(n).facts.fetch(:gems) }).uniq
  end
end
