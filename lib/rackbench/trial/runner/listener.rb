# frozen_string_literal: true

module Rackbench
  class Runner
    # The Runner's listener (Progress, a test's recorder, or none), told only
    # the events it answers; the events and their order are the Runner's.
    #
    #   listener = Listener.new(progress)
    #   listener.tell(:cell_finished, cell, measurement)
    class Listener
      def initialize(target)
        @target = target
      end

      def tell(event, *args)
        @target.public_send(event, *args) if @target.respond_to?(event)
      end
    end
  end
end
