# frozen_string_literal: true

# A CPU-bound app whose work per request is the env var WORK (iterations of
# a small integer loop, default 20,000): two servers given WORK and
# 1.2 x WORK differ by the app's own work, a known difference for
# bench/designs and bench/stability. Their throughputs differ by less than
# 1.2x: the server's work per request is the same in both (at 20,000 a
# request costs about 1.15x less CPU than at 24,000 here; bench/stability/run
# measures it as each server's CPU time per request).
WORK = Integer(ENV.fetch("WORK", "20000"))

run(lambda do |_env|
  x = 0
  WORK.times { |i| x = (x + (i * 7)) % 1_000_003 }
  [200, { "content-type" => "text/plain" }, ["worked #{x}\n"]]
end)
