# frozen_string_literal: true

require "delegate"

module Rackbench
  class Store
    # An output stream whose text passes through a Redaction on its way
    # out: what rackbench prints while it runs (progress, a failed cell's
    # reason and log tail, warnings) often ends in a CI log, so it keeps
    # the run's secrets out as the store does. Everything else (tty?,
    # winsize, flush) is the stream's own.
    #
    #   out = RedactedOutput.new($stdout, store.redaction(Suite::Secrets.of(suite)))
    #   out.puts "cannot reach postgres://app:pw@db/app"   # prints ...app:[redacted:...]@db/app
    class RedactedOutput < SimpleDelegator
      def initialize(stream, redaction)
        super(stream)
        @redaction = redaction
      end

      def puts(*lines) = __getobj__.puts(*lines.flatten.map { |line| @redaction.text(line.to_s) })
      def print(*parts) = __getobj__.print(*parts.map { |part| @redaction.text(part.to_s) })
      def write(*parts) = __getobj__.write(*parts.map { |part| @redaction.text(part.to_s) })
      def printf(format, *args) = print(Kernel.format(format, *args))

      def <<(part)
        write(part)
        self
      end
    end
  end
end
