# frozen_string_literal: true

require "test_helper"
require "zlib"
require_relative "../services/started_services"

module Rackbench
  # Thruster in front of a real Puma: every endpoint of the catalogue answered
  # through it (its X-Cache header on each answer), its gzip seen on the wire,
  # and its settings given as the environment of the recorded command.
  class ThrusterTest < Minitest::Test
    include StartedServices

    def thruster(config = {}) = Proxies.fetch("thruster").new({ "proxy" => "thruster" }.merge(config)).validate!
    def entry(proxy = {}) = { "server" => "puma", "threads" => 4, "proxy" => { "proxy" => "thruster" }.merge(proxy) }

    def teardown
      @trial&.stop
      stop_services
      @supervisor&.stop_all
      assert_nothing_left
      super
    end

    def test_its_settings_are_the_environment_of_the_recorded_command
      bind = Servers::Base::Bind.new(port: 4100)
      backends = [Servers::Base::Bind.new(port: 4101)]
      argv = thruster("gzip" => false, "cache_size" => 1_048_576).command(bind: bind, backends: backends, dir: tmpdir)
      assert_equal "env", argv.first
      assert_equal %w[sleep infinity], argv.last(2)
      assert_equal Proxies.fetch("thruster").path, argv[-3]
      settings = argv[1..-4].to_h { |pair| pair.split("=", 2) }
      assert_equal({ "HTTP_PORT" => "4100", "TARGET_PORT" => "4101", "GZIP_COMPRESSION_ENABLED" => "false",
                     "CACHE_SIZE" => "1048576", "X_SENDFILE_ENABLED" => "true", "LOG_REQUESTS" => "false" },
                   settings.slice("HTTP_PORT", "TARGET_PORT", "GZIP_COMPRESSION_ENABLED", "CACHE_SIZE", "X_SENDFILE_ENABLED",
                                  "LOG_REQUESTS"))
    end

    def test_the_label_says_what_it_does_to_the_answers
      assert_equal "thruster (gzip, x-sendfile)", thruster.label
      assert_equal "thruster (x-sendfile, cache 8 MB)", thruster("gzip" => false, "cache_size" => 8 * 1_048_576).label
      plain = entry("gzip" => false, "x_sendfile" => false)
      assert_equal "puma x0:4 via thruster (plain)", Servers.fetch("puma").new(plain).label
    end

    def test_it_stands_in_front_of_one_server_on_tcp_and_says_so_otherwise
      error = assert_raises(ConfigError) { Servers.fetch("puma").new(entry.merge("instances" => 2)).validate! }
      assert_equal "proxy thruster fronts at most 1 server instance, got instances: 2", error.message
      error = assert_raises(ConfigError) { Servers.fetch("puma").new(entry.merge("bind" => "unix")).validate! }
      assert_equal "proxy thruster reaches its server over TCP only; the server has bind: unix", error.message
      error = assert_raises(ConfigError) { thruster("gzip" => "yes") }
      assert_equal 'proxy thruster: "gzip" must be true or false, got "yes"', error.message
    end

    def test_target_port_is_where_its_server_listens
      assert_equal 45_678, Servers.fetch("puma").new(entry("target_port" => 45_678)).bind(tmpdir).port
    end

    def test_in_front_of_puma_it_answers_every_endpoint_of_the_catalogue_with_its_own_header
      skip_unless_installed
      env = start_services({ "service" => "upstream", "delay_ms" => 5 }, { "service" => "memcached" })
      start(entry, env)
      Apps.endpoints.each do |endpoint|
        answer = @trial.answer(Request.new(endpoint.sample_request))
        assert answer.ok?, "#{endpoint.sample} through thruster: #{answer.problems.join("; ")}"
        assert_match(/\A(miss|hit|bypass)\z/, answer.headers["x-cache"].to_s, "#{endpoint.sample}: Thruster's X-Cache header")
      end
      assert_includes @trial.commands.last, Proxies.fetch("thruster").path, "the proxy's recorded command runs Thruster"
    end

    def test_its_gzip_is_seen_on_the_wire_and_decodes_to_the_page
      skip_unless_installed
      start(entry, {})
      plain = page(nil)
      zipped = page("gzip")
      assert_nil plain[1]["content-encoding"]
      assert_equal "gzip", zipped[1]["content-encoding"]
      assert_operator zipped[2].bytesize * 2, :<, plain[2].bytesize, "the page compressed on the wire"
      assert_equal plain[2], Zlib.gunzip(zipped[2])
    end

    def test_it_sends_the_file_an_x_sendfile_answer_names_itself
      skip_unless_installed
      start(entry, Apps::SENDFILE_ENV => "X-Sendfile")
      request = Request.new("path" => "/file/1048576")
      answer = @trial.answer(request)
      assert answer.ok?, answer.problems.join("; ")
      _, headers, body = request.perform(@trial.deployment.backends.first.target(request.path))
      assert_equal 0, body.bytesize, "puma answered with the file's name only"
      assert_equal answer.body, File.binread(headers.fetch("x-sendfile")), "and Thruster sent that file's bytes"
    end

    def test_with_gzip_false_it_sends_the_page_as_the_server_wrote_it
      skip_unless_installed
      start(entry("gzip" => false), {})
      assert_nil page("gzip")[1]["content-encoding"]
    end

    private

    def skip_unless_installed
      reason = Proxies.fetch("thruster").unavailable_reason
      skip reason if reason
    end

    def start(config, env)
      server = Servers.fetch("puma").new(config).validate!
      env = Apps.default_env(tmpdir).merge(env)
      @trial = Trial.new(server, supervisor: supervisor, dir: tmpdir, app: Apps.path("rack"), env: env,
                                 rule: AnswerRule.new(catalogue: true, env: env)).start
    end

    def page(encoding)
      headers = encoding ? { "Accept-Encoding" => encoding } : {}
      Request.new("path" => "/template-render", "headers" => headers).perform(@trial.target("/template-render"))
    end
  end
end
