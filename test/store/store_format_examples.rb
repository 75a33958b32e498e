# frozen_string_literal: true

module Rackbench
  # What a stored run holds, whichever database holds it: no secret of its
  # suite in any row (Store::Redaction), each window compact
  # (Store::Compact). Included, with StoreExamples, by the SQLite tests
  # and the PostgreSQL ones, which define open_store and @store.
  module StoreFormatExamples
    # A suite with a secret in env:, a database password in a URL, a
    # secret in a server entry and one in its env_file.
    def secret_suite
      dir = FileUtils.mkdir_p(File.join(tmpdir, "secret-suite")).first
      File.write(File.join(dir, "app.env"), "API_TOKEN=tok-0a9b8c7d6e\n")
      env = { "SECRET_KEY_BASE" => "skb-5e4d3c2b1a", "DATABASE_URL" => "postgres://app:pw-1f2e3d4c@127.0.0.1/app" }
      servers = [{ "server" => "puma", "threads" => 2, "env" => { "MY_PASSWORD" => "mpw-6a7b8c9d" } }]
      File.write(File.join(dir, "suite.yml"),
                 suite_yaml("env" => env, "env_file" => "app.env", "setup" => ["echo tok-0a9b8c7d6e"], "servers" => servers))
      Suite.load(File.join(dir, "suite.yml"))
    end

    def test_no_secret_of_the_suite_is_in_any_row_of_its_run
      suite = secret_suite
      run = @store.create_run(suite: suite, settings: suite.data, machine: { "env" => suite.env }, pinning: {},
                              plan: Plan.new(suite))
      @store.add_repeat(run["id"], 1, repeat(1, 100.0))
      @store.add_cell(run["id"], cell(1, 100.0).merge(config: suite.server_configs.first, log_tail: "token tok-0a9b8c7d6e"))
      @store.finish_run(run["id"], nil, ended_by: ServiceError.new("cannot reach postgres://app:pw-1f2e3d4c@127.0.0.1/app"))
      rows = @store.send(:raw_rows, run["id"])
      text = JSON.generate(rows.transform_values { |v| v.is_a?(Array) ? v.map(&:to_h) : v.to_h })
      %w[skb-5e4d3c2b1a pw-1f2e3d4c mpw-6a7b8c9d tok-0a9b8c7d6e].each { |secret| refute_includes text, secret }
      stored = @store.run(run["id"])
      marker = stored.dig("settings", "env", "SECRET_KEY_BASE")
      assert_match(/\A\[redacted:\h{8}\]\z/, marker)
      assert_equal marker, Psych.safe_load(stored["suite_yaml"]).dig("env", "SECRET_KEY_BASE"), "one marker per value"
      assert_equal "app.env", stored.dig("settings", "env_file"), "the env file is named, never read into the store"
    end

    def test_a_window_is_stored_compact_and_reads_back_equal
      run = new_run
      result = repeat(1, 100.0).result
      result.series = (1..5).map { |i| { "t_s" => i.to_f, "requests" => 100 + i } }
      result.histogram = [[100, 400], [1000, 590], [4001, 10]] # as rackbench-load prints them (4001: 4000's bucket)
      @store.add_repeat(run["id"], 1, repeat(1, 100.0).tap { |r| r.result = result })
      row = @store.send(:raw_rows, run["id"])[:repeats].first
      assert_match(/"histogram":"HISTFAAA/, row[:result_json], "HdrHistogram's V2 compressed form")
      assert_match(/"series":\{"encoding":"columns-v1"/, row[:result_json])
      back = @store.repeats(run["id"])[1].first.result
      assert_equal JSON.generate(result.to_h), JSON.generate(back.to_h)
    end
  end
end
