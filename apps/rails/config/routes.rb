# frozen_string_literal: true

Rails.application.routes.draw do
  digits = { ms: /\d+/, n: /\d+/ }
  controller :workloads do
    get "/hello", action: :hello
    get "/sleep/:ms", action: :pause, constraints: digits
    get "/fibonacci/:n", action: :fibonacci, constraints: digits
    get "/primes/:n", action: :primes, constraints: digits
    get "/template-render", action: :template_render
    get "/sleep-render/:ms", action: :sleep_render, constraints: digits
    get "/network-io", action: :network_io
    get "/network-io-render", action: :network_io_render
    get "/db", action: :db
    get "/cache", action: :cache
  end
  # /static is public/static.html, served by ActionDispatch::Static.
end
