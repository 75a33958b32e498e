# frozen_string_literal: true

require "etc"
require "socket"

module Rackbench
  # Provenance: the machine, kernel, Ruby and gem versions a run was measured on.
  module Environment
    GEMS = %w[rack puma unicorn thin webrick rackup sinatra roda rails falcon pitchfork iodine agoo passenger].freeze

    module_function

    def capture
      {
        "hostname" => Socket.gethostname,
        "cpu_model" => cpu_model,
        "cores" => Etc.nprocessors,
        "memory_bytes" => memory_bytes,
        "kernel" => File.read("/proc/sys/kernel/osrelease").strip,
        "os" => os_release,
        "ruby" => RUBY_DESCRIPTION,
        "rackbench" => VERSION,
        "gems" => gem_versions,
        "loadavg" => File.read("/proc/loadavg").split.first(3).map(&:to_f)
      }
    end

    def cpu_model
      File.read("/proc/cpuinfo")[/^model name\s*:\s*(.+)$/, 1]
    rescue Errno::ENOENT
      nil
    end

    def memory_bytes
      kb = File.read("/proc/meminfo")[/^MemTotal:\s+(\d+)/, 1]
      kb && (kb.to_i * 1024)
    end

    def os_release
      File.read("/etc/os-release")[/^PRETTY_NAME="?([^"\n]+)/, 1]
    rescue Errno::ENOENT
      nil
    end

    def gem_versions
      GEMS.to_h do |g|
        spec = Gem::Specification.find_all_by_name(g).max_by(&:version)
        [g, spec&.version&.to_s]
      end.compact
    end
  end
end
