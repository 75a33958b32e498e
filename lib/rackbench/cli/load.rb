# frozen_string_literal: true

module Rackbench
  module CLI
    # rackbench load ARGS...: runs the native load engine (rackbench-load) with
    # ARGS unchanged, e.g. `rackbench load unix:/tmp/app.sock:/hello -c 50 --json`.
    # From a terminal it replaces this process, so signals and output are the
    # engine's own; otherwise (tests, embedding) it runs it and relays its output.
    class Load < Command
      def call
        engine = Engines.fetch("native").new
        unless engine.available?
          @err.puts "rackbench: #{engine.unavailable_reason}"
          return 1
        end
        exec(engine.path, *@argv) if @out.equal?($stdout) && @err.equal?($stderr)

        relay(engine.path)
      end

      private

      def relay(path)
        finished = Supervisor.run([path, *@argv], timeout_s: nil)
        @out.write(finished.stdout)
        @err.write(finished.stderr)
        finished.status.exitstatus || 1
      end
    end
  end
end
