# frozen_string_literal: true

require "test_helper"

module Rackbench
  # What the server tests share: deploy a suite entry with an app, drive a
  # short wrk load at it, and stop everything they started.
  module ServerTestHelpers
    HELLO_APP = File.join(ROOT, "apps", "rack", "config.ru")
    LOAD_REQUESTS = 400

    def teardown
      @deployment&.stop
      @supervisor&.stop_all
      assert_nothing_left
      super
    end

    def deploy(config, app: HELLO_APP, ready_timeout_s: 60)
      @supervisor = Supervisor.new
      server = Servers.fetch(config["server"]).new(config).validate!
      assert_nil server.class.unavailable_reason, "bin/setup installs #{server.name}"
      # The env a run gives an app (/db's SQLite file in the deployment's folder).
      options = { supervisor: @supervisor, dir: tmpdir, app: app, env: Apps.default_env(tmpdir), ready_timeout_s: }
      @deployment = start_once_more_after_a_crash(server, options)
    end

    # A server killed by a signal before it was ready: in a run that is a
    # failed cell (faults_test.rb); here, where serving is what is tested, it
    # is started once more and the crash is said on stderr. (Apache with
    # mod_passenger died by SIGSEGV at its start in one of six CI runs under a
    # CPU hog, its log ending on its usual warnings; 36 starts by hand, none.)
    def start_once_more_after_a_crash(server, options)
      Deployment.new(server, **options).start
    rescue ServiceError => e
      raise unless e.message.match?(/exited before it was ready \(killed by SIG(SEGV|BUS|ABRT)\)/)

      warn "#{name}: #{e.message}; starting it once more"
      Deployment.new(server, **options).start
    end

    # A load of a fixed number of requests, not of a duration: a slow machine
    # (a cold JVM on a busy host) takes longer, and serves the same load.
    def short_load(path = "/hello", concurrency: 8, requests: LOAD_REQUESTS)
      load = Engines::Load.new(target: @deployment.target(path), concurrency: concurrency, threads: 2,
                               requests: requests, timeout_s: 30)
      dir = File.join(tmpdir, "load").tap { |d| FileUtils.mkdir_p(d) }
      Engines.fetch("native").new.run(load, supervisor: @supervisor, dir: dir)
    end

    # The entry serves /hello with "hello world" and a short load has no error.
    # warmup_requests GETs before the load (a cold JVM's Rails answers a few
    # dozen requests in its first second on a busy machine).
    def assert_serves_hello(config, warmup_requests: 1, **options)
      deploy(config, **options)
      warmup_requests.times do
        status, _headers, body = Readiness.get(@deployment.target("/hello"))
        assert_equal [200, "hello world"], [status, body]
      end
      result = short_load
      assert_operator result.requests, :>=, LOAD_REQUESTS / 2, "#{@deployment.server.label} served a real load"
      # A connection the server drops or cuts short (puma 8 truncates about one
      # response in 300,000; fork_worker's refork closes connections) is
      # tolerated once per 1,000 requests; any other error fails.
      dropped = result.errors.values_at("read", "malformed").sum
      assert_equal 0, result.error_count - dropped, "#{@deployment.server.label}: #{result.errors.inspect}"
      assert_operator dropped, :<=, [result.requests / 1000, 1].max, "#{@deployment.server.label}: #{result.errors.inspect}"
      result
    end
  end
end
