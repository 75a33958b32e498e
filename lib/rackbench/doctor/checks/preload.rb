# frozen_string_literal: true

module Rackbench
  module Doctor
    # Workers that each load the app themselves: nothing is shared
    # copy-on-write, so memory per worker is higher than with preload, and
    # the memory figures do not match a preloading production.
    class Preload < Check
      NAME = "preload"

      def findings
        shapes.select { |s| s.workers.to_i > 1 && !preloads?(s) }.map do |s|
          note("#{s.label}: #{s.workers} workers without preload: each worker loads the app itself, so memory per " \
               "worker is higher and shares nothing copy-on-write",
               where: s.where["preload"], fix: facts(s)[:preload_fix] || "preload: true")
        end
      end

      private

      # Said by the suite or file, else from the version on which the server preloads by default (its facts).
      def preloads?(shape)
        return shape.preload unless shape.preload.nil?

        from = facts(shape)[:preloads_from] or return false
        adapter = Servers.fetch(shape.server)
        version = files.gems[adapter.gem_name] || adapter.version
        version && Gem::Version.new(version) >= Gem::Version.new(from)
      end

      def facts(shape) = Servers.names.include?(shape.server) ? Servers.fetch(shape.server).facts : {}
    end

    register("preload", Preload)
  end
end
