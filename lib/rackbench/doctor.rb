# frozen_string_literal: true

module Rackbench
  # `rackbench doctor`: what would make a benchmark misleading, found in the
  # suite, the app's files and this machine, each with where it was found
  # and the fix. One check per file in lib/rackbench/doctor/checks/, found
  # by name (Doctor.fetch("swap")), each a Doctor::Check.
  #
  #   subject = Doctor::Subject.for("rackbench.yml")
  #   machine = Doctor::Machine.capture(results_dir: "rackbench-results")
  #   Doctor.examine(subject, machine)   # => [Doctor::Finding, ...], warnings first
  module Doctor
    REGISTRY = Registry.new("doctor check", "doctor/checks")

    extend Registry::Facade

    def self.examine(subject, machine)
      all.flat_map { |check| check.new(subject, machine).findings }.sort_by { |f| f.warning? ? 0 : 1 }
    end
  end
end
require_relative "doctor/finding"
require_relative "doctor/ruby_value"
require_relative "doctor/app_files"
require_relative "doctor/server_file"
require_relative "doctor/database_yml"
require_relative "doctor/shape"
require_relative "doctor/subject"
require_relative "doctor/machine"
require_relative "doctor/check"
