# frozen_string_literal: true

module Rackbench
  # Runs the block for each item on a thread of its own and waits for them
  # all: a deployment's instances stopping, a level's deployments retiring,
  # each waiting for its own exit. An item whose block raised does not stop
  # the others; the first error is raised once all are done.
  #
  #   SideBySide.each(instances) { |child| server.stop(supervisor, child) }
  module SideBySide
    module_function

    def each(items, &block)
      threads = items.map { |item| Thread.new { block.call(item) }.tap { |t| t.report_on_exception = false } }
      errors = threads.filter_map do |t|
        t.join
        nil
      rescue StandardError => e
        e
      end
      raise errors.first if errors.any?
    end
  end
end
