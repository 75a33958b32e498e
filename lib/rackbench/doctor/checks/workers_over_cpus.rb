# frozen_string_literal: true

module Rackbench
  module Doctor
    # More worker processes than the CPUs the server gets: they take turns
    # on the CPUs, so the config measures the scheduler, not the server.
    class WorkersOverCpus < Check
      NAME = "workers_over_cpus"

      def findings
        return [] if suite&.[]("server_host") # the servers run on another host, whose CPUs doctor does not see

        cpus = server_cpus
        shapes.select { |s| s.processes > cpus.size }.map do |s|
          warning("#{s.label} runs #{s.processes} processes on the #{cpus.size} CPU(s) the server gets " \
                  "(CPU #{cpus.join(",")})", where: s.where["workers"], fix: fix(cpus))
        end
      end

      private

      def fix(cpus)
        scale = subject.suite? ? " (or `workers: by_cpus` under scale:)" : ""
        "workers: #{cpus.size} at most#{scale}, or a machine with more CPUs"
      end
    end

    register("workers_over_cpus", WorkersOverCpus)
  end
end
