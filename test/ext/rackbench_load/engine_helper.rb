# frozen_string_literal: true

require "test_helper"
require "json"
require "open3"
require "socket"

module Rackbench
  # Real servers for the engine's tests, started through the test's Supervisor
  # and waited for against a monotonic deadline (never a fixed sleep).
  module EngineServers
    RACK_APP = File.join(ROOT, "apps", "rack", "config.ru")

    def free_port
      server = TCPServer.new("127.0.0.1", 0)
      server.addr[1]
    ensure
      server&.close
    end

    def wait_for_port(port, child)
      wait_until(timeout_s: 60, message: "port #{port} listening") do
        flunk "#{child.name} exited: #{child.log_tail}" unless child.alive?
        TCPSocket.new("127.0.0.1", port).close || true
      rescue SystemCallError
        false
      end
    end

    def wait_for_socket(path, child)
      wait_until(timeout_s: 60, message: "#{path} listening") do
        flunk "#{child.name} exited: #{child.log_tail}" unless child.alive?
        UNIXSocket.new(path).close || true
      rescue SystemCallError
        false
      end
    end

    # nginx in the foreground, one process (so SIGSTOP stalls the server itself).
    # Locations: / and /hello answer "hello world", /missing 404, /chunked is
    # sent chunked, /empty 204, /gz/FILE is FILE of its folder gzipped when
    # asked (Accept-Encoding: gzip), any other path a file of its folder
    # (nginx_dir). keepalive_requests bounds each connection.
    def start_nginx(port: free_port, unix: nil, keepalive_requests: 10_000, worker_connections: 4096)
      dir = nginx_dir(port)
      FileUtils.mkdir_p(dir)
      listen = unix ? "unix:#{unix}" : "127.0.0.1:#{port}"
      File.write(File.join(dir, "hello.txt"), "hello world")
      File.write(File.join(dir, "nginx.conf"), nginx_conf(dir, listen, keepalive_requests, worker_connections))
      child = supervisor.spawn(["nginx", "-p", dir, "-e", "#{dir}/error.log", "-c", "#{dir}/nginx.conf"],
                               name: "nginx", log_path: File.join(dir, "nginx.log"))
      unix ? wait_for_socket(unix, child) : wait_for_port(port, child)
      [child, unix ? "unix:#{unix}:" : "http://127.0.0.1:#{port}"]
    end

    # The folder nginx on port serves files from.
    def nginx_dir(port) = File.join(tmpdir, "nginx-#{port}")

    def nginx_conf(dir, listen, keepalive_requests, worker_connections)
      <<~CONF
        daemon off;
        master_process off;
        worker_processes 1;
        worker_rlimit_nofile #{worker_connections * 2};
        pid #{dir}/nginx.pid;
        error_log #{dir}/error.log;
        events { worker_connections #{worker_connections}; }
        http {
          access_log off;
          client_body_temp_path #{dir}/body;
          proxy_temp_path #{dir}/proxy;
          fastcgi_temp_path #{dir}/fastcgi;
          uwsgi_temp_path #{dir}/uwsgi;
          scgi_temp_path #{dir}/scgi;
          keepalive_requests #{keepalive_requests};
          server {
            listen #{listen} backlog=16384;
            root #{dir};
            location = / { return 200 "hello world"; }
            location = /hello { return 200 "hello world"; }
            location = /empty { return 204; }
            location = /chunked { default_type text/plain; chunked_transfer_encoding on; gzip off;
                                  return 200 "chunked hello"; }
            location = /file { default_type text/plain; try_files /hello.txt =404; }
            location /gz/ { alias #{dir}/; default_type text/plain; gzip on; gzip_types text/plain; gzip_min_length 0; }
          }
        }
      CONF
    end

    # A rack app for uploads and sized answers: reads the request's body and
    # answers "received N" (N: the body's bytes) followed by ?size= bytes.
    UPLOAD_APP = <<~'RUBY'
      run lambda { |env|
        received = env["rack.input"].read.bytesize
        text = "received #{received}\n" + ("x" * env["QUERY_STRING"][/size=(\d+)/, 1].to_i)
        [200, { "content-type" => "text/plain", "content-length" => text.bytesize.to_s }, [text]]
      }
    RUBY

    def upload_app
      path = File.join(tmpdir, "upload.ru")
      File.write(path, UPLOAD_APP)
      path
    end

    # puma on the bundled rack app (or app, a config.ru), over TCP or a Unix socket.
    def start_puma(unix: nil, threads: 4, app: RACK_APP)
      port = free_port
      bind = unix ? "unix://#{unix}" : "tcp://127.0.0.1:#{port}"
      argv = [RbConfig.ruby, Gem.bin_path("puma", "puma"), "--bind", bind, "--threads", "#{threads}:#{threads}",
              "--workers", "0", "--environment", "production", app]
      child = supervisor.spawn(argv, name: "puma", log_path: File.join(tmpdir, "puma-#{port}.log"))
      unix ? wait_for_socket(unix, child) : wait_for_port(port, child)
      [child, unix ? "unix:#{unix}:" : "http://127.0.0.1:#{port}"]
    end

    # thin (one EventMachine loop: it buffers uploads and answers, so a slow
    # client holds no thread) on app, a config.ru, over TCP.
    def start_thin(app:)
      port = free_port
      argv = [RbConfig.ruby, Gem.bin_path("thin", "thin"), "start", "--address", "127.0.0.1", "--port", port.to_s,
              "--rackup", app, "--environment", "production"]
      child = supervisor.spawn(argv, name: "thin", log_path: File.join(tmpdir, "thin-#{port}.log"))
      wait_for_port(port, child)
      [child, "http://127.0.0.1:#{port}"]
    end
  end

  # Helpers for the native engine's tests: build rackbench-load once, start
  # real servers (nginx, puma) through a Supervisor and wait for them against a
  # monotonic deadline, run the engine and read its JSON. Every process started
  # here is stopped in the test's teardown (Supervisor#stop_all).
  module EngineHelpers
    include EngineServers

    EXT_DIR = File.join(ROOT, "ext", "rackbench_load")
    BINARY = File.join(EXT_DIR, "rackbench-load")

    def self.build!
      @build ||= begin
        out, status = Open3.capture2e("make", "-s", "-C", EXT_DIR, "rackbench-load")
        raise "building rackbench-load failed:\n#{out}" unless status.success?

        true
      end
    end

    def supervisor
      @supervisor ||= Supervisor.new
    end

    def teardown
      @stopped&.each { |pid| Process.kill("CONT", pid) rescue nil } # rubocop:disable Style/RescueModifier
      @supervisor&.stop_all
      super
    end

    # Runs rackbench-load ARGS; returns [stdout, stderr, status, elapsed_s].
    def load_raw(*args)
      EngineHelpers.build!
      started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
      out, err, status = Open3.capture3(BINARY, *args.map(&:to_s))
      [out, err, status, Process.clock_gettime(Process::CLOCK_MONOTONIC) - started]
    end

    # Runs rackbench-load --json ARGS; returns its parsed JSON (with "elapsed_s").
    def load_json(*args)
      out, err, status, elapsed = load_raw("--json", *args)
      assert status.success?, "rackbench-load #{args.join(" ")} failed: #{err}"
      JSON.parse(out).merge("elapsed_s" => elapsed)
    end

    def errors_total(result)
      result["errors"].values.sum
    end
  end
end
