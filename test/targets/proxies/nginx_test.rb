# frozen_string_literal: true

require "test_helper"

module Rackbench
  # nginx's gzip and X-Accel-Redirect in front of a real Puma serving the
  # bundled Rack app: the page compressed on the wire, the file sent by nginx.
  class NginxTest < Minitest::Test
    def supervisor = @supervisor ||= Supervisor.new

    def teardown
      @trial&.stop
      @supervisor&.stop_all
      assert_nothing_left
      super
    end

    def start(proxy, env = {})
      config = { "server" => "puma", "threads" => 2, "proxy" => { "proxy" => "nginx" }.merge(proxy) }
      env = Apps.default_env(tmpdir).merge(env)
      server = Servers.fetch("puma").new(config).validate!
      @trial = Trial.new(server, supervisor: supervisor, dir: tmpdir, app: Apps.path("rack"), env: env,
                                 rule: AnswerRule.new(catalogue: true, env: env)).start
    end

    def test_with_gzip_it_compresses_the_html_and_the_catalogue_still_finds_it_right
      start("gzip" => true)
      request = Request.new("path" => "/compressible/1048576", "headers" => { "Accept-Encoding" => "gzip" })
      answer = @trial.answer(request)
      assert_equal "gzip", answer.headers["content-encoding"]
      assert_operator answer.body.bytesize * 10, :<, 1_048_576, "under a tenth of the bytes on the wire"
      assert answer.ok?, answer.problems.join("; ")
      assert_nil @trial.answer(Request.new("path" => "/bytes/65536", "headers" => { "Accept-Encoding" => "gzip" }))
                       .headers["content-encoding"], "random bytes (application/octet-stream) are sent as they are"
    end

    def test_without_gzip_it_sends_the_html_as_puma_wrote_it
      start({})
      answer = @trial.answer(Request.new("path" => "/compressible/65536", "headers" => { "Accept-Encoding" => "gzip" }))
      assert_nil answer.headers["content-encoding"]
      assert_equal 65_536, answer.body.bytesize
    end

    def test_with_x_accel_it_sends_the_file_the_app_names
      start({ "x_accel" => true }, Apps::SENDFILE_ENV => "X-Accel-Redirect")
      request = Request.new("path" => "/file/1048576")
      answer = @trial.answer(request)
      assert answer.ok?, answer.problems.join("; ")
      as_nginx_asks = Request.new("path" => request.path, "headers" => { "X-Accel-Mapping" => "/=/_sendfile/" })
      _, headers, body = as_nginx_asks.perform(@trial.deployment.backends.first.target(request.path))
      assert_equal 0, body.bytesize, "puma answers nginx with the file's name only"
      assert_match %r{\A/_sendfile/.+/random-1048576\.bin\z}, headers["x-accel-redirect"]
      assert_includes File.read(File.join(tmpdir, "nginx.conf")), "location /_sendfile/ { internal; alias /; }"
    end
  end
end
