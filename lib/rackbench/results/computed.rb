# frozen_string_literal: true

require "digest"
require "fileutils"
require "json"

module Rackbench
  # Seeded computations kept between processes (lists of numbers, as JSON): the sequential designs'
  # boundaries and the run estimate's simulation of a design are the same
  # for the same arguments, the same code and the same Ruby, and cost about
  # 0.2 and 1 CPU-s each process that needs them (every `rackbench run`
  # with repeats: auto). A value is kept in ~/.cache/rackbench/computed/
  # under the digest of its name, its arguments, the source of the code
  # that computes it and the Ruby's version, so changed code computes again;
  # written beside its name and renamed into place, so a reader never sees
  # half a file. Any error reading or writing the cache computes instead.
  #
  #   Computed.fetch("sequential", [3, 10, 0.95], sources: [__FILE__]) { boundaries }
  module Computed
    module_function

    def fetch(name, arguments, sources:, &compute)
      path = path_or_nil(name, arguments, sources)
      return compute.call unless path # no home folder to keep it in, or a source it cannot read

      kept = read(path)
      return kept unless kept.nil?

      compute.call.tap { |value| write(path, value) }
    end

    def dir = File.join(ENV["XDG_CACHE_HOME"] || File.join(Dir.home, ".cache"), "rackbench", "computed")

    def path_or_nil(name, arguments, sources)
      path_for(name, arguments, sources)
    rescue StandardError
      nil
    end

    def path_for(name, arguments, sources)
      digest = Digest::SHA256.new
      digest << Marshal.dump([name, arguments, RUBY_VERSION, RUBY_PATCHLEVEL])
      sources.sort.each { |file| digest << File.binread(file) }
      File.join(dir, "#{name}-#{digest.hexdigest[0, 24]}.json")
    end

    def read(path)
      File.exist?(path) ? JSON.parse(File.read(path)) : nil
    rescue StandardError
      nil
    end

    def write(path, value)
      FileUtils.mkdir_p(File.dirname(path))
      staging = "#{path}.#{Process.pid}.tmp"
      File.write(staging, JSON.generate(value))
      File.rename(staging, path)
    rescue StandardError
      FileUtils.rm_f(staging) if staging
    end
  end
end
