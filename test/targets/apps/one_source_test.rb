# frozen_string_literal: true

require "test_helper"

module Rackbench
  # Every bundled app mounts the one catalogue (apps/shared/catalogue.rb):
  # an endpoint added there alone, route, handler and all, is served by all
  # four, each started on a real puma with the entry added before it boots.
  class OneSourceTest < Minitest::Test
    CATALOGUE = File.join(ROOT, "apps", "shared", "catalogue.rb")

    # A config.ru that adds /double/:n to the catalogue, then is the app.
    def with_extra_endpoint(app)
      path = File.join(tmpdir, "#{app}-with-double.ru")
      File.write(path, <<~RUBY)
        require #{CATALOGUE.inspect}
        module Workloads
          double = Endpoint.new(name: "double", route: "/double/:n", kind: :plain, sample: "/double/21",
                                purpose: "a test's own endpoint",
                                handler: ->(n, query) { "double \#{n * 2}\#{query["unit"]}" },
                                expected: ->(params, _env) { "double \#{params[0] * 2}" })
          catalogue = CATALOGUE + [double]
          remove_const(:CATALOGUE)
          const_set(:CATALOGUE, catalogue.freeze)
        end
        instance_eval(File.read(#{Apps.path(app).inspect}), #{Apps.path(app).inspect})
      RUBY
      path
    end

    def supervisor = @supervisor ||= Supervisor.new

    def teardown
      @supervisor&.stop_all
      super
    end

    Apps.names.each do |app|
      define_method("test_#{app}_serves_an_endpoint_added_to_the_catalogue_alone") do
        server = Servers.fetch("puma").new("server" => "puma", "threads" => 2)
        dir = FileUtils.mkdir_p(File.join(tmpdir, app)).first
        deployment = Deployment.new(server, supervisor: supervisor, dir: dir, app: Apps.path(app),
                                            rackup: with_extra_endpoint(app), env: Apps.default_env(dir)).start
        status, headers, body = Readiness.get(deployment.target("/double/21?unit=x"))
        assert_equal [200, "text/plain", "double 42x"], [status, headers["content-type"].to_s.split(";").first, body], app
        status, _, body = Readiness.get(deployment.target("/hello"))
        assert_equal [200, "hello world"], [status, body], "#{app}'s own endpoints are still there"
        assert_equal 404, Readiness.get(deployment.target("/double/many")).first, "#{app} takes whole numbers only"
        deployment.stop
        assert_nothing_left
      end
    end
  end
end
