# frozen_string_literal: true

# Servers for the bench/ scripts that measure against a peer: free ports,
# readiness against a monotonic deadline, and a one-process nginx serving one
# page, all started through a Rackbench::Supervisor (stop_all ends them).
require "socket"

def free_port
  s = TCPServer.new("127.0.0.1", 0)
  s.addr[1]
ensure
  s&.close
end

def wait_for_port(port, child)
  deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + 20
  loop do
    TCPSocket.new("127.0.0.1", port).close
    return
  rescue SystemCallError
    raise "#{child.name} exited: #{child.log_tail}" unless child.alive?
    raise "#{child.name} not listening after 20 s" if Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline

    sleep 0.05
  end
end

def start_nginx(supervisor, dir, page)
  port = free_port
  File.write(File.join(dir, "page.html"), page)
  File.write(File.join(dir, "nginx.conf"), <<~CONF)
    daemon off; master_process off; worker_processes 1; pid #{dir}/nginx.pid; error_log #{dir}/error.log;
    events { worker_connections 4096; }
    http { access_log off; client_body_temp_path #{dir}/body; proxy_temp_path #{dir}/proxy;
           fastcgi_temp_path #{dir}/fastcgi; uwsgi_temp_path #{dir}/uwsgi; scgi_temp_path #{dir}/scgi;
           server { listen 127.0.0.1:#{port}; root #{dir}; location / { try_files /page.html =404; } } }
  CONF
  child = supervisor.spawn(["nginx", "-p", dir, "-e", "#{dir}/error.log", "-c", "#{dir}/nginx.conf"],
                           name: "nginx", log_path: File.join(dir, "nginx.log"))
  wait_for_port(port, child)
  Rackbench::Target.tcp(port, "/")
end

def median(values) = values.sort[values.size / 2]
