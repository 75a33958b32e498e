# frozen_string_literal: true

# Loaded into puma on JRuby (jruby -r this puma ...). Before it answers a
# request, puma on Linux asks the kernel whether the client already hung up:
# getsockopt(IPPROTO_TCP, TCP_INFO), then the TCP state in the answer's first
# byte. JRuby 9.3's getsockopt copies the kernel's answer into a 256-byte
# buffer, and Linux 6's struct tcp_info is longer (280 bytes here), so the
# call raises ArrayIndexOutOfBoundsException and the request is dropped with
# "Error reached top of thread-pool". Puma has the answer for systems without
# TCP_INFO (the client is assumed still there); this gives JRuby that one.
require "puma"
require "puma/server"

Puma::Server.prepend(Module.new do
  def closed_socket?(_socket)
    false
  end
end)
