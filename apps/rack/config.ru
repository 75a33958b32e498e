# frozen_string_literal: true

# The bundled plain-Rack workload app: rackup apps/rack/config.ru
run lambda { |env|
  case env["PATH_INFO"]
  when "/hello"
    [200, { "content-type" => "text/plain" }, ["hello world"]]
  when %r{\A/sleep/(\d+)\z}
    ms = Regexp.last_match(1).to_i
    sleep(ms / 1000.0)
    [200, { "content-type" => "text/plain" }, ["slept #{ms} ms"]]
  else
    [404, { "content-type" => "text/plain" }, ["not found"]]
  end
}
