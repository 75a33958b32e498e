# frozen_string_literal: true

require "test_helper"
require "bundler"
require "open3"
require "socket"

module Rackbench
  # `gem build` + `gem install` into a fresh GEM_HOME build the native load
  # engine (gemspec extensions), and the installed `rackbench` drives load and
  # runs the quick suite from the bundled apps and suites it ships.
  class GemInstallTest < Minitest::Test
    # A loopback HTTP/1.1 server, one thread per connection, keep-alive.
    def with_http_server
      server = TCPServer.new("127.0.0.1", 0)
      threads = []
      acceptor = Thread.new do
        loop do
          client = server.accept
          threads << Thread.new(client) do |c|
            while c.gets
              nil until c.gets == "\r\n"
              c.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
            end
          rescue IOError, SystemCallError
            nil
          ensure
            c.close
          end
        end
      rescue IOError, SystemCallError
        nil
      end
      yield server.addr[1]
    ensure
      server&.close
      acceptor&.kill
      threads&.each(&:kill)
    end

    def test_the_installed_gem_builds_its_engine_and_runs_load_and_the_quick_suite
      home = File.join(tmpdir, "gem-home")
      gem = File.join(tmpdir, "rackbench.gem")
      env = { "GEM_HOME" => home, "GEM_PATH" => [home, *Gem.path].join(File::PATH_SEPARATOR) }
      Bundler.with_unbundled_env do
        out, status = Open3.capture2e("gem", "build", "rackbench.gemspec", "-o", gem, chdir: ROOT)
        assert status.success?, out
        out, status = Open3.capture2e(env, "gem", "install", "--local", "--no-document", "--ignore-dependencies", gem)
        assert status.success?, out
        installed = Dir[File.join(home, "gems", "rackbench-*")].first
        assert File.executable?(File.join(installed, "ext", "rackbench_load", "rackbench-load")), "the engine was built"
        bin = File.join(home, "bin", "rackbench")

        with_http_server do |port|
          out, status = Open3.capture2e(env, bin, "load", "http://127.0.0.1:#{port}/", "-c", "2", "-n", "200", chdir: tmpdir)
          assert status.success?, out
          assert_match(/200 requests in/, out)
        end

        # Its windows halved and its ratios read from them (no duet ratio
        # window a block): what is checked is the installed gem running its
        # shipped suite and app, not their figures.
        out, status = Open3.capture2e(env, bin, "run", "quick", "--smoke", "--duration", "0.5", "--ratio", "turns",
                                      "--results", File.join(tmpdir, "results"), chdir: tmpdir)
        assert status.success?, out
        assert_match(%r{^/hello\n}, out)
        assert_match(/^puma x0:16\s+4\s+[\d,.]+/, out)
      end
    end
  end
end
