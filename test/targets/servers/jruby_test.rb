# frozen_string_literal: true

require_relative "server_helper"
require "net/http"

# The JRuby servers of 000_4acd4926cf356a23.txt on Debian's jruby (JRuby 9.3,
# which parses Ruby 2.6); a JVM starts slowly, hence the longer readiness
# wait. Each test starts one JVM, so each checks all it can of that server.
# The bundled rack app on Trinidad (jruby-rack loading Rack 2.2 from
# Trinidad's gem folder, ahead of the Rack 1.6 it vendors) and the Rails app
# on TorqueBox are measured under load by the torquebox-2011 smoke run
# (test/suite/builtin/torquebox_2011_test.rb), so no test here starts them again.
# Every JVM here starts in JRuby's quick start (quick_start: true, a knob a
# suite has too; its command differs by JRuby's flags only,
# test_quick_start_...): what they check is what is served, and such a JVM
# was ready in half the CPU seconds (bench/jvm/run starts each server both
# ways), and each checks its JVM mapped the class-data archive.
class JRubyServersTest < Minitest::Test
  include Rackbench::ServerTestHelpers

  # A JVM's start: 30-100 s at load 11-25 here, past 150 s at load 47 (four
  # JVMs of other runs at once). A deadline, not a wait: a quick start ends it.
  JVM_READY_S = 300

  def time_limit_s = (2 * JVM_READY_S) + 120

  # How long a cold JVM may take to answer the first request on a path that
  # loads code (Action View's templates, the SQLite JDBC driver): a safety
  # net, not a target. Trinidad's first /db took past Readiness.get's usual
  # 5 s in a whole-suite run under a one-core hog at load 15.
  FIRST_ANSWER_S = 60

  def first_get(path) = Rackbench::Readiness.get(@deployment.target(path), timeout_s: FIRST_ANSWER_S)

  # The bundled rack app on puma_jruby, and at /rack-release the Rack it runs
  # on: Rack 2.2, which jruby/rack2.rb activates ahead of any Rack 3 in the
  # gem folder, the one the Rails app's Rails 6.1 needs. (Rails 6.1 on JRuby's Rack 2.2 is
  # served by the Trinidad test below and by the torquebox-2011 smoke run on
  # Trinidad and TorqueBox: no Rails boot here.) Before puma_tcp_info.rb,
  # about half of the JVMs started here dropped every request (JRuby's
  # getsockopt(TCP_INFO) overflowed its buffer): one JVM, no retry, every
  # request of the load answered.
  def test_puma_on_jruby_serves_the_bundled_rack_app_on_rack_2_under_load_without_errors
    path = File.join(tmpdir, "release_app", "config.ru")
    FileUtils.mkdir_p(File.dirname(path))
    File.write(path, RELEASE_APP)
    assert_serves_hello({ "server" => "puma_jruby", "threads" => 4, "quick_start" => true }, app: path,
                                                                                             ready_timeout_s: JVM_READY_S,
                                                                                             warmup_requests: 100)
    assert_includes @deployment.commands.first, Rackbench::Servers::PumaJruby::RACK2
    assert_includes @deployment.commands.first, Rackbench::Servers::PumaJruby::TCP_INFO_PATCH
    assert_maps_the_class_archive
    status, _headers, body = first_get("/rack-release")
    assert_equal 200, status
    assert_match(/\A2\.2\.\d+\z/, body, "puma on JRuby runs on Rack 2.2, not the Rack 3 beside it")
  end

  # The bundled rack app, and at /rack-release the Rack it runs on.
  RELEASE_APP = <<~RUBY.freeze
    bundled = Rack::Builder.parse_file(#{Rackbench::Apps.path("rack").inspect})
    bundled = bundled.first if bundled.is_a?(Array)
    release = lambda { |_env| [200, { "content-type" => "text/plain" }, [Rack.release]] }
    run lambda { |env| env["PATH_INFO"] == "/rack-release" ? release.call(env) : bundled.call(env) }
  RUBY

  # The bundled Rails app on JRuby's Rails 6.1 (bin/setup installs it beside
  # Trinidad): /hello through the router and a controller under a short load,
  # /template-render through Action View, and /db (SQLite through its JDBC
  # driver) under a short load, each without an error.
  def test_trinidad_serves_the_bundled_rails_app_and_its_db_under_load_without_errors
    assert_serves_hello({ "server" => "trinidad", "runtimes" => 1, "quick_start" => true }, app: Rackbench::Apps.path("rails"),
                                                                                            ready_timeout_s: JVM_READY_S,
                                                                                            warmup_requests: 100)
    status, _headers, body = first_get("/template-render")
    assert_equal 200, status
    assert_includes body, "<title>Catalogue</title>"
    assert_maps_the_class_archive
    assert_serves_db
  end

  # GET /db answers the row it updated, then a short load of /db has no error.
  def assert_serves_db
    status, _headers, body = first_get("/db")
    assert_equal 200, status, body
    assert_match(/\Adb sqlite: updated row \d+, read 10 rows\z/, body)
    result = short_load("/db", concurrency: 4, requests: 40)
    assert_equal 40, result.requests, "#{@deployment.server.label} served /db under load"
    assert_equal 0, result.error_count, result.errors.inspect
  end

  # The bundled rack app, and at /echo an app that answers what it sees of
  # the env (Ruby 2.6, no JSON gem needed): one JVM start for both checks below.
  ENV_APP = <<~RUBY.freeze
    bundled = Rack::Builder.parse_file(#{Rackbench::Apps.path("rack").inspect})
    bundled = bundled.first if bundled.is_a?(Array)
    echo = lambda { |env|
      seen = [env.key?("HTTP_HOST"), env.size > 10, env["REQUEST_METHOD"], env["PATH_INFO"],
              env["QUERY_STRING"], env["CONTENT_TYPE"].inspect, env["rack.input"].read]
      [200, { "content-type" => "text/plain" }, [seen.map(&:to_s).join("|")]]
    }
    run lambda { |env| env["PATH_INFO"] == "/echo" ? echo.call(env) : bundled.call(env) }
  RUBY

  # TorqueBox 4 with its Rack env class renamed for JRuby 9.3 (bin/setup):
  # the bundled rack app under load without an error. (The Rails app on
  # TorqueBox, its hello and fibonacci under load, is measured by the
  # torquebox-2011 smoke run: test/suite/builtin/torquebox_2011_test.rb.)
  # And the env it hands an app: TorqueBox fills its env as entries are
  # read, and under JRuby 9.3 key? and size do not fill it, so
  # torquebox_server.rb fills it first. The request's method, path, query
  # string, content type and body arrive, key?/size see every entry, and a
  # GET has no CONTENT_TYPE (TorqueBox's own says "null").
  def test_torquebox_4_serves_the_bundled_rack_app_under_load_and_hands_it_a_filled_env
    path = File.join(tmpdir, "env_app", "config.ru")
    FileUtils.mkdir_p(File.dirname(path))
    File.write(path, ENV_APP)
    assert_serves_hello({ "server" => "torquebox", "threads" => 4, "quick_start" => true }, app: path,
                                                                                            ready_timeout_s: JVM_READY_S)
    assert_includes @deployment.commands.first, Rackbench::Servers::Torquebox::SERVER_SCRIPT
    assert_maps_the_class_archive
    status, _headers, body = first_get("/sleep/20")
    assert_equal [200, "slept 20 ms"], [status, body]
    assert_serves_db
    uri = URI("http://127.0.0.1:#{@deployment.bind.port}/echo?a=1&b=two")
    get = Net::HTTP.get_response(uri)
    post = Net::HTTP.post(uri, "name=value", "content-type" => "application/x-www-form-urlencoded")
    assert_equal "true|true|GET|/echo|a=1&b=two|nil|", get.body
    assert_equal "true|true|POST|/echo|a=1&b=two|\"application/x-www-form-urlencoded\"|name=value", post.body
  end

  # A quick-started JVM maps JRuby's classes from the archive bin/setup built
  # (Rackbench::Servers::ClassArchive), as JRuby's launcher was told by JRUBY_JSA.
  def assert_maps_the_class_archive
    archive = Rackbench::Servers::ClassArchive.path
    assert File.exist?(archive), "bin/setup builds the class-data archive"
    maps = @deployment.pids.map { |pid| File.read("/proc/#{pid}/maps") }
    assert(maps.any? { |m| m.include?(File.realpath(archive)) }, "no JVM of #{@deployment.pids} mapped #{archive}")
  end

  # quick_start: JRuby's --dev flags between jruby and what it runs (where the
  # launcher reads them), said in the label, and the class-data archive in
  # its env (JRUBY_JSA); as deployed, none of them.
  def test_quick_start_puts_jrubys_dev_flags_on_the_command_and_says_so_in_the_label
    bind = Rackbench::Servers::Base::Bind.new(port: 8080)
    %w[trinidad torquebox puma_jruby].each do |name|
      quick, deployed = [true, false].map do |on|
        server = Rackbench::Servers.fetch(name).new("server" => name, "quick_start" => on, "app" => "rails").validate!
        [server.command(app: File.join(tmpdir, "config.ru"), bind: bind, dir: tmpdir), server.label]
      end
      flags = Rackbench::Servers::JRubyBase::QUICK_START
      assert_equal flags, quick[0][1, flags.size], name
      assert_empty flags & deployed[0], name
      assert_equal quick[0].drop(1 + flags.size), deployed[0].drop(1), name
      assert_equal [deployed[1].sub(" [rails]", " +quick-start [rails]"), false], [quick[1], deployed[1].include?("quick")]
      envs = [true, false].map { |on| Rackbench::Servers.fetch(name).new("server" => name, "quick_start" => on).env }
      assert_equal [Rackbench::Servers::ClassArchive.path, nil], envs.map { |e| e.fetch("JRUBY_JSA") }, name
    end
  end

  def test_jruby_servers_see_their_own_gems_and_debians_outside_bundler
    env = Rackbench::Servers.fetch("trinidad").new("server" => "trinidad").env
    assert_equal [File.join(Rackbench::ROOT, "vendor", "jruby", "trinidad"), "/usr/share/jruby/lib/ruby/gems/shared"],
                 env["GEM_PATH"].split(":")
    assert env.key?("RUBYOPT") && env["RUBYOPT"].nil?, "bundler's RUBYOPT is unset for the JVM"
  end
end
