# frozen_string_literal: true

# A backend that counts the /hello requests it served, so a test can tell
# which backends a proxy sent them to: GET /count answers "<pid> <count>".
hello_count = 0
lock = Mutex.new
run lambda { |env|
  case env["PATH_INFO"]
  when "/hello"
    lock.synchronize { hello_count += 1 }
    [200, { "content-type" => "text/plain" }, ["hello world"]]
  when "/count"
    [200, { "content-type" => "text/plain" }, ["#{Process.pid} #{lock.synchronize { hello_count }}"]]
  else
    [200, { "content-type" => "text/plain" }, ["ok"]]
  end
}
