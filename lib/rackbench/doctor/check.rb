# frozen_string_literal: true

module Rackbench
  module Doctor
    # The contract of a doctor check. Doctor.examine calls, for each check:
    #
    #   check = Doctor.fetch("swap").new(subject, machine)   # a Subject and a Machine
    #   check.findings                                      # => [Finding], empty when all is well
    #
    # A check is one file in lib/rackbench/doctor/checks/ that registers its
    # class under its file's name (its NAME), reads only the subject and the machine, and
    # builds its findings with #warning (the figures would mislead) or #note
    # (they hold, but production will differ: memory, cost, a faster Ruby).
    class Check
      attr_reader :subject, :machine

      def initialize(subject, machine)
        @subject = subject
        @machine = machine
      end

      def findings = raise(NotImplementedError, "#{self.class} must list its findings")

      private

      def name = self.class::NAME

      def warning(message, where:, fix:) = Finding.new(check: name, severity: "warning", message: message, where: where, fix: fix)
      def note(message, where:, fix:) = Finding.new(check: name, severity: "note", message: message, where: where, fix: fix)

      def files = subject.files
      def shapes = subject.shapes
      def suite = subject.suite

      # The CPUs the server gets: all but the load generator's when rackbench pins (see Pinning).
      def server_cpus
        cpus = machine.cpus
        pin = suite ? suite["pin"] != false : true
        pin && cpus.size >= 2 && machine.taskset ? cpus[0..-2] : cpus
      end

      def mb(bytes) = "#{(bytes / 1024.0 / 1024).round} MB"
    end
  end
end
