# frozen_string_literal: true

require_relative "engine_helper"

module Rackbench
  # Bodies on the wire: large responses counted to the byte, gzip asked for
  # and seen (bodies as sent beside their decoded size, from the gzip
  # trailer), and uploads of a given size that reach the server whole.
  class NativeBodiesTest < Minitest::Test
    include EngineHelpers

    MIB = 1_048_576

    def test_a_one_megabyte_response_is_counted_in_bytes_exactly
      port = free_port
      _nginx, base = start_nginx(port: port)
      File.binwrite(File.join(nginx_dir(port), "1m.bin"), Random.new(1).bytes(MIB))
      # one connection: nothing in flight beyond the 40th response, so every byte read is theirs
      r = load_json("#{base}/1m.bin", "-c", 1, "-n", 40, "--expect-status", "200")
      assert_equal 40, r["requests"]
      assert_equal 0, errors_total(r)
      assert_equal 40 * MIB, r["body_bytes"]
      assert_equal 40 * MIB, r["decoded_bytes"], "an identity body is its own decoded size"
      assert_equal 0, r["gzip_responses"]
      headers, left = (r["bytes"] - r["body_bytes"]).divmod(40)
      assert_equal 0, left, "every byte read: the bodies and each response's same headers"
      assert_includes 100..1000, headers
    end

    def test_gzip_is_asked_for_seen_on_the_wire_and_decoded_to_the_byte
      port = free_port
      _nginx, base = start_nginx(port: port)
      text = "rackbench counts the bytes it reads and the bytes they decode to\n" * 5000
      File.write(File.join(nginx_dir(port), "page.txt"), text)
      plain = load_json("#{base}/gz/page.txt", "-c", 2, "-n", 20)
      assert_equal [0, 20 * text.bytesize, 20 * text.bytesize],
                   plain.values_at("gzip_responses", "body_bytes", "decoded_bytes"), "not asked: not compressed"
      zipped = load_json("#{base}/gz/page.txt", "-c", 2, "-n", 20, "--accept-gzip")
      assert_equal 20, zipped["gzip_responses"]
      assert_equal 20 * text.bytesize, zipped["decoded_bytes"], "the gzip trailer's size: the text's"
      assert_operator zipped["body_bytes"] * 20, :<, zipped["decoded_bytes"], "repeated text compresses over 20 times"
      assert_operator zipped["bytes"], :<, plain["bytes"] / 20
      assert_empty zipped["warning_codes"]
    end

    def test_uploads_of_a_given_size_reach_the_server_whole
      _puma, base = start_puma(app: upload_app)
      r = load_json("#{base}/upload", "-c", 1, "-n", 20, "-m", "POST", "--body-size", "1m", "--timeout", "10s",
                    "--expect-status", "200", "--expect-body", "received #{MIB}\n")
      assert_equal 20, r["requests"]
      assert_equal 0, errors_total(r), r["errors"].inspect
      request_line_and_headers, left = (r["sent_bytes"] - (20 * MIB)).divmod(20)
      assert_equal 0, left, "twenty uploads of the same request, nothing more"
      assert_includes 40..200, request_line_and_headers
    end

    # A body larger than one argument may be (128 KB on Linux) reaches the engine in a file.
    def test_the_native_engine_sends_a_large_suite_body_whole
      _puma, base = start_puma(app: upload_app)
      EngineHelpers.build!
      traffic = Traffic.new("path" => "/upload", "method" => "POST", "body" => "y" * 300_000,
                            "expect_body" => "received 300000")
      load = Engines::Load.new(target: Target.tcp(base[/:(\d+)\z/, 1].to_i, "/upload"), concurrency: 1, requests: 10,
                               timeout_s: 10, traffic: traffic, rule: AnswerRule.new)
      result = Engines.fetch("native").new.run(load, supervisor: supervisor, dir: tmpdir)
      assert_includes result.command, "--body-file"
      assert_equal 10, result.requests
      assert_equal 0, result.error_count, result.errors.inspect
      assert_operator result.sent_bytes, :>=, 10 * 300_000
    end
  end
end
