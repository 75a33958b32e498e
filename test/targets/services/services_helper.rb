# frozen_string_literal: true

require "test_helper"

module Rackbench
  # Starts a service the way the Runner does (its own folder, the test's
  # Supervisor) and stops everything the test started when it ends.
  module ServiceHelpers
    def supervisor = @supervisor ||= Supervisor.new

    def start_service(config)
      service = Services.fetch(config["service"]).new(config)
      (@services ||= []) << service
      dir = File.join(tmpdir, "service-#{config["service"]}-#{@services.size}")
      FileUtils.mkdir_p(dir)
      [service, service.start(supervisor, dir)]
    end

    def teardown
      (@services || []).reverse_each { |s| s.stop(supervisor) }
      @supervisor&.stop_all
      super
    end

    def monotonic_s = Process.clock_gettime(Process::CLOCK_MONOTONIC)
  end
end
