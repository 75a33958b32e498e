# frozen_string_literal: true

# A CPU-bound app whose work per request is the env var WORK (iterations of
# a small integer loop, default 20,000): two servers given WORK and
# 1.2 x WORK differ by about 1.2x in throughput by the app's own work, a
# known difference for bench/designs and bench/stability.
WORK = Integer(ENV.fetch("WORK", "20000"))

run(lambda do |_env|
  x = 0
  WORK.times { |i| x = (x + (i * 7)) % 1_000_003 }
  [200, { "content-type" => "text/plain" }, ["worked #{x}\n"]]
end)
