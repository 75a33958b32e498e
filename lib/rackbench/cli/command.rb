# frozen_string_literal: true

module Rackbench
  module CLI
    # What every command shares: CLI.start makes one per call with the
    # arguments after the command's name, where to print and where to say
    # what went wrong. A command sets its own defaults after super and
    # answers #call with an exit status.
    #
    #   class Suites < Command
    #     def call = @out.puts(Suite.builtin_names) || 0
    #   end
    class Command
      def initialize(argv, out, err)
        @argv = argv
        @out = out
        @err = err
      end
    end
  end
end
