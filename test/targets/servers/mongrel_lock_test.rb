# frozen_string_literal: true

require_relative "server_helper"

# 004_d5fd84afbf770cf8.txt's Mongrels ran Rails 2, which served one request at
# a time; `lock: true` gives a Mongrel that lock. On a page that sleeps 50 ms,
# a locked Mongrel can finish at most one request per 50 ms whatever the number
# of clients; without the lock its threads overlap the sleeps.
class MongrelLockTest < Minitest::Test
  include Rackbench::ServerTestHelpers

  REQUEST_S = 0.05
  DURATION_S = 2
  CLIENTS = 16

  def sleep_load
    load = Rackbench::Engines::Load.new(target: @deployment.target("/sleep/#{(REQUEST_S * 1000).to_i}"),
                                        concurrency: CLIENTS, threads: 2, duration_s: DURATION_S)
    dir = File.join(tmpdir, "load-#{@deployment.server.label.tr(" ", "-")}").tap { |d| FileUtils.mkdir_p(d) }
    Rackbench::Engines.fetch("wrk").new.run(load, supervisor: @supervisor, dir: dir)
  end

  def serve(config)
    deploy(config)
    result = sleep_load
    assert_equal 0, result.error_count, result.errors.inspect
    result.requests
  ensure
    @deployment&.stop
    @supervisor&.stop_all
    @deployment = nil
  end

  def test_a_locked_mongrel_is_bounded_by_one_over_the_request_time_and_an_unlocked_one_is_not
    bound = (DURATION_S / REQUEST_S).ceil + 1
    locked = serve({ "server" => "mongrel", "lock" => true })
    assert_operator locked, :>, 0
    assert_operator locked, :<=, bound, "a locked Mongrel finished more than one 50 ms request per 50 ms"
    unlocked = serve({ "server" => "mongrel" })
    assert_operator unlocked, :>, 2 * bound, "#{CLIENTS} clients' sleeps overlap in an unlocked Mongrel's threads"
  end

  def test_lock_takes_only_true_or_false
    error = assert_raises(Rackbench::ConfigError) { Rackbench::Servers.fetch("mongrel").new("server" => "mongrel", "lock" => 1).validate! }
    assert_match(/"lock" must be true or false, got 1/, error.message)
  end
end
