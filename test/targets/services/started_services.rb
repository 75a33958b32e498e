# frozen_string_literal: true

module Rackbench
  # For tests that serve the catalogue's service endpoints: the services
  # started for real (each in its own folder of the test's tmpdir), their
  # environment for the app, and all of them stopped in teardown.
  #
  #   env = start_services({ "service" => "upstream", "delay_ms" => 5 }, { "service" => "memcached" })
  module StartedServices
    def supervisor = @supervisor ||= Supervisor.new

    def start_services(*configs)
      @services = configs.map { |c| Services.fetch(c["service"]).new(c) }
      @services.each_with_index.inject({}) do |env, (service, i)|
        env.merge(service.start(supervisor, FileUtils.mkdir_p(File.join(tmpdir, "service-#{i}")).first))
      end
    end

    def stop_services = (@services || []).reverse_each { |s| s.stop(supervisor) }
  end
end
