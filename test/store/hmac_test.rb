# frozen_string_literal: true

require "test_helper"
require "openssl"

module Rackbench
  class Store
    class HmacTest < Minitest::Test
      # RFC 4231's first and sixth test cases: a short key, and a key longer
      # than SHA-256's 64-byte block (hashed first).
      def test_it_gives_rfc_4231s_digests
        assert_equal "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7",
                     Hmac.sha256_hex("\x0b".b * 20, "Hi There")
        assert_equal "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54",
                     Hmac.sha256_hex("\xaa".b * 131, "Test Using Larger Than Block-Size Key - Hash Key First")
      end

      # The markers of stores written before it (OpenSSL's HMAC) stay the same.
      def test_it_agrees_with_openssl_on_keys_and_values_of_every_size_and_encoding
        rng = Random.new(36)
        [0, 1, 31, 32, 63, 64, 65, 200].product([0, 1, 55, 56, 64, 300]).each do |key_bytes, value_bytes|
          key = rng.bytes(key_bytes)
          value = rng.bytes(value_bytes).force_encoding(Encoding::UTF_8)
          assert_equal OpenSSL::HMAC.hexdigest("SHA256", key, value), Hmac.sha256_hex(key, value),
                       [key_bytes, value_bytes].inspect
        end
        assert_equal OpenSSL::HMAC.hexdigest("SHA256", "clé", "mot de passe é"), Hmac.sha256_hex("clé", "mot de passe é")
      end
    end
  end
end
