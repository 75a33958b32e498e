# frozen_string_literal: true

require "test_helper"
require "minitest/mock"
require "rackbench/cli"
require "rackbench/cli/servers"

# `rackbench servers`: every server and proxy adapter with whether it is
# installed, its version, whether it works here (or why not) and its knobs;
# the listing starts nothing, --probe starts adapters for real.
class ServersCommandTest < Minitest::Test
  def setup
    @cache_home = ENV.fetch("XDG_CACHE_HOME", nil)
    ENV["XDG_CACHE_HOME"] = File.join(tmpdir, "cache")
  end

  def teardown
    ENV["XDG_CACHE_HOME"] = @cache_home
    assert_nothing_left
    super
  end

  def test_the_markdown_table_lists_every_server_and_proxy_without_starting_anything
    commands = []
    new_supervisor = Rackbench::Supervisor.method(:new)
    recording = lambda do |*args, **kwargs|
      new_supervisor.call(*args, **kwargs).tap do |supervisor|
        supervisor.define_singleton_method(:spawn) do |argv, **options|
          commands << argv.map(&:to_s)
          super(argv, **options)
        end
      end
    end
    status, out, = Rackbench::Supervisor.stub(:new, recording) { run_cli("servers", "--format", "markdown") }
    assert_equal 0, status
    asks_a_version = ->(argv) { argv.intersect?(%w[-v -V --version version]) }
    assert commands.all?(&asks_a_version), "the listing only asks versions; it starts no server: #{commands.inspect}"
    rows = out.lines.drop(2).map { |l| l.split(" | ").map(&:strip) }
    assert_equal(Rackbench::Servers.names + Rackbench::Proxies.names, rows.map { |r| r[1] })
    assert_match(/\A\| Kind \| Name \| Installed \| Version \| Knobs \| Status here \|/, out)
    assert_includes out, "| proxy | lighttpd | yes |"
    assert_includes out, "balance (fair / round-robin / hash / sticky)"
    klass = Rackbench::Proxies.fetch("thruster")
    thruster = rows.find { |r| r[1] == "thruster" }
    assert_equal [klass.installed? ? "yes" : "no", klass.version || "-", klass.knobs.join(", ")], thruster.values_at(2, 3, 4)
    return unless klass.installed?

    assert_match(/\A\d+\.\d+\.\d+\z/, thruster[3],
                 "bin/setup thruster installs it, and its version is listed")
  end

  # TorqueBox 4 on this JRuby starts, then fails each request; the probe keeps
  # what the server's log said about the failed answer, not just its status.
  def test_a_probe_whose_server_answers_an_error_records_the_error_its_log_names
    klass = Class.new(Rackbench::Servers.fetch("puma")) do
      def self.server_name = "puma"

      def command(bind:, **)
        [RbConfig.ruby, "-rsocket", "-e", <<~RUBY]
          server = TCPServer.new("127.0.0.1", #{bind.port})
          loop do
            client = server.accept
            client.readpartial(4096)
            warn "RuntimeError: the app raised on \#{client.object_id}"
            client.write("HTTP/1.1 500 Internal Server Error\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            client.close
          end
        RUBY
      end
    end
    outcome = Rackbench::CLI::Servers::Probe.new(cache_path: File.join(tmpdir, "probe.json")).server(klass)
    assert_equal "fails", outcome["status"]
    assert_match(%r{GET /hello: status 500, expected 200.*RuntimeError: the app raised}, outcome["reason"])
  end

  def test_probe_starts_the_server_and_remembers_that_it_works
    _, before, = run_cli("servers")
    assert_match(/webrick .*not probed/, before)
    status, after, = run_cli("servers", "--probe", "webrick")
    assert_equal 0, status
    assert_match(/webrick .*works \(probed \d{4}-\d\d-\d\d\)/, after)
    _, later, = run_cli("servers")
    assert_match(/webrick .*works \(probed/, later, "the outcome is cached")
    assert_match(/puma .*not probed/, later, "--probe NAME probes only NAME")
  end

  def test_a_probe_that_fails_records_the_servers_own_error
    klass = Class.new(Rackbench::Servers.fetch("puma")) do
      def self.server_name = "puma"
      def command(**) = [RbConfig.ruby, "-e", "warn 'cannot bind: Permission denied'; exit 3"]
    end
    outcome = Rackbench::CLI::Servers::Probe.new(cache_path: File.join(tmpdir, "probe.json")).server(klass)
    assert_equal "fails", outcome["status"]
    assert_match(/exited before it was ready.*cannot bind: Permission denied/, outcome["reason"])
  end

  def test_a_server_that_fails_its_first_start_only_is_reported_as_working_only_sometimes
    klass = Class.new(Rackbench::Servers.fetch("puma")) do
      class << self
        attr_accessor :starts
      end
      def self.server_name = "puma"

      def command(**)
        self.class.starts = self.class.starts.to_i + 1
        self.class.starts == 1 ? [RbConfig.ruby, "-e", "warn 'first JVM broken'; exit 70"] : super
      end
    end
    outcome = Rackbench::CLI::Servers::Probe.new(cache_path: File.join(tmpdir, "probe.json")).server(klass)
    assert_equal "works", outcome["status"]
    assert_match(/2 starts, 1 failed: .*first JVM broken/, outcome["flaky"])
  end
end
