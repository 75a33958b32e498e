# frozen_string_literal: true

module Rackbench
  module Doctor
    # Workers that each load the app themselves: nothing is shared
    # copy-on-write, so memory per worker is higher than with preload, and
    # the memory figures do not match a preloading production.
    class Preload < Check
      NAME = "preload"
      PUMA_PRELOAD_DEFAULT = Gem::Version.new("6.0") # puma >= 6 preloads by default with workers > 1

      def findings
        shapes.select { |s| s.workers.to_i > 1 && !preloads?(s) }.map do |s|
          note("#{s.label}: #{s.workers} workers without preload: each worker loads the app itself, so memory per " \
               "worker is higher and shares nothing copy-on-write",
               where: s.where["preload"], fix: s.server == "puma" ? "preload: true (preload_app!)" : "preload: true")
        end
      end

      private

      def preloads?(shape)
        return shape.preload unless shape.preload.nil?
        return false unless shape.server == "puma"

        version = files.gems["puma"] || Servers.fetch("puma").version
        version && Gem::Version.new(version) >= PUMA_PRELOAD_DEFAULT
      end
    end

    register("preload", Preload)
  end
end
