# frozen_string_literal: true

require_relative "base"

module Rackbench
  module Services
    # The upstream HTTP stub behind /network-io and /network-io-render: a real
    # process (upstream/server.rb) that answers every GET after delay_ms with a
    # page of body_bytes, on loopback or a Unix socket. The apps find it in
    # RACKBENCH_UPSTREAM_URL.
    #
    #   services:
    #     - {service: upstream, delay_ms: 50, body_bytes: 16384}
    #     - {service: upstream, bind: unix}
    class Upstream < Base
      NAME = "upstream"
      SERVER = File.join(__dir__, "upstream", "server.rb")
      ENV_KEY = "RACKBENCH_UPSTREAM_URL"
      knob :delay_ms, :number, min: 0, default: 50, doc: "delay before each answer, as a remote site would add (ms)"
      knob :body_bytes, :number, min: 0, default: 16_384, doc: "size of the page it answers (bytes)"

      attr_reader :target

      def start(supervisor, dir)
        validate!
        @target = unix? ? Target.unix(SocketPath.for(dir, "upstream.sock"), "/") : Target.tcp(free_port, "/")
        listen = unix? ? ["--socket", target.socket_path] : ["--host", target.host, "--port", target.port]
        child = launch(supervisor,
                       [ruby, SERVER, *listen, "--delay-ms", setting(:delay_ms), "--body-bytes", setting(:body_bytes)], dir)
        Readiness.wait(target.with_path("/?delay_ms=0&body_bytes=1"), child: child, timeout_s: DEFAULT_READY_TIMEOUT_S)
        { ENV_KEY => target.url }
      end
    end

    register("upstream", Upstream)
  end
end
