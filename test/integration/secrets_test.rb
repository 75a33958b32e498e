# frozen_string_literal: true

require "test_helper"
require "json"
require "open3"
require "securerandom"
require "yaml"

module Rackbench
  # Secrets never stored: a suite whose env holds a secret key and a
  # database URL with a password, and an env_file with a token, runs a real
  # server that gets all three, and another that fails at boot printing two
  # of them (its reason and log tail hold them); none of them is then in the
  # SQLite file (its bytes searched), in any report format, in rackbench's
  # own output, or in any file under the results folder (the failed
  # server's log included).
  class SecretsTest < Minitest::Test
    BIN = File.join(ROOT, "bin", "rackbench")

    # An app that writes the env it got into a file outside the results
    # folder (where the test can see what the server saw), and answers ok.
    APP = <<~RUBY
      require "json"
      raise "cannot connect to \#{ENV.fetch("DATABASE_URL")} with \#{ENV.fetch("API_TOKEN")}" if ENV["FAIL_LOUDLY"]
      File.write(ENV.fetch("SEEN_FILE"), JSON.generate(ENV.to_h.slice("SECRET_KEY_BASE", "DATABASE_URL", "API_TOKEN")))
      run ->(_env) { [200, { "content-type" => "text/plain" }, ["ok"]] }
    RUBY

    def secrets
      @secrets ||= { "SECRET_KEY_BASE" => "skb-#{SecureRandom.hex(16)}", "password" => "pw-#{SecureRandom.hex(8)}",
                     "API_TOKEN" => "tok-#{SecureRandom.hex(12)}" }
    end

    def app_suite
      dir = FileUtils.mkdir_p(File.join(tmpdir, "app")).first
      File.write(File.join(dir, "config.ru"), APP)
      File.write(File.join(dir, "secrets.env"), "API_TOKEN=#{secrets["API_TOKEN"]}\n")
      File.write(File.join(dir, "suite.yml"), {
        "name" => "secrets", "app" => "config.ru", "endpoints" => ["/"], "concurrency" => [2], "duration_s" => 0.5,
        "rate" => 50, "warmup_s" => 0, "repeats" => 1, "deployments" => 1, "engine" => "native", "env_file" => "secrets.env",
        "env" => { "SECRET_KEY_BASE" => secrets["SECRET_KEY_BASE"], "SEEN_FILE" => File.join(tmpdir, "seen.json"),
                   "DATABASE_URL" => "postgres://app:#{secrets["password"]}@127.0.0.1:5432/app" },
        "servers" => [{ "server" => "puma", "threads" => 2 },
                      { "server" => "puma", "threads" => 1, "label" => "loud", "env" => { "FAIL_LOUDLY" => "1" } }]
      }.to_yaml)
      File.join(dir, "suite.yml")
    end

    # What it printed; exit 3 says a cell failed (the loud one).
    def rackbench(*argv)
      out, err, status = Open3.capture3(BIN, *argv)
      assert_includes [0, 3], status.exitstatus, "rackbench #{argv.join(" ")}:\n#{out}#{err}"
      out + err
    end

    # A report made in this process (the command line is the run's part):
    # what the command printed, stdout and stderr.
    def report(*argv)
      status, out, err = run_cli("report", *argv)
      assert_includes [0, 3], status, "rackbench report #{argv.join(" ")}:\n#{out}#{err}"
      out + err
    end

    def assert_no_secret(text, where)
      secrets.each { |name, value| refute_includes text.b, value.b, "#{name}'s value is in #{where}" }
    end

    def test_the_server_gets_the_secrets_and_neither_the_store_nor_a_report_nor_a_file_keeps_them
      results = File.join(tmpdir, "results")
      output = rackbench("run", app_suite, "--results", results)
      seen = JSON.parse(File.read(File.join(tmpdir, "seen.json")))
      assert_equal({ "SECRET_KEY_BASE" => secrets["SECRET_KEY_BASE"], "API_TOKEN" => secrets["API_TOKEN"],
                     "DATABASE_URL" => "postgres://app:#{secrets["password"]}@127.0.0.1:5432/app" }, seen)
      assert_no_secret(output, "rackbench run's output")

      reports = {}
      %w[table markdown csv json html].each do |format|
        assert_no_secret(reports[format] = report("--results", results, "--format", format), "the #{format} report")
      end
      files = Dir.glob(File.join(results, "**", "*"), File::FNM_DOTMATCH).select { |f| File.file?(f) }
      assert_includes files.map { |f| File.basename(f) }, Store::FILE
      assert(files.any? { |f| f.end_with?("report.html") }, "the html report was written under the results folder")
      files.each { |file| assert_no_secret(File.binread(file), file.delete_prefix("#{results}/")) }

      json = JSON.parse(reports["json"])
      run = json["run"]
      assert_match(/\A\[redacted:\h{8}\]\z/, run.dig("settings", "env", "SECRET_KEY_BASE"))
      assert_match %r{\Apostgres://app:\[redacted:\h{8}\]@127\.0\.0\.1:5432/app\z}, run.dig("settings", "env", "DATABASE_URL")
      assert_equal "secrets.env", run.dig("settings", "env_file")
      loud = json["cells"].find { |c| c["label"] == "loud" }
      assert_equal "failed", loud["status"]
      assert_match %r{cannot connect to postgres://app:\[redacted:\h{8}\]@127\.0\.0\.1:5432/app with \[redacted:\h{8}\]},
                   loud["log_tail"], "the failed server's own words, its secrets as markers"
      assert_nothing_left
    end
  end
end
