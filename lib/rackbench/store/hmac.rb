# frozen_string_literal: true

require "digest"

module Rackbench
  class Store
    # HMAC-SHA256 (RFC 2104) on Ruby's own digest library: the digest in a
    # redaction marker. OpenSSL's HMAC gives the same bytes, but loading
    # OpenSSL cost every `rackbench` process 0.08-0.1 s of CPU, as much as
    # the rest of the store's code, for one digest of a few short values.
    #
    #   Hmac.sha256_hex("key", "value")   # => "90fbfcf1..." (64 hex digits)
    module Hmac
      BLOCK_BYTES = 64
      INNER_PAD = 0x36
      OUTER_PAD = 0x5c

      module_function

      def sha256_hex(key, message)
        key = key.b
        key = Digest::SHA256.digest(key) if key.bytesize > BLOCK_BYTES
        key = key.ljust(BLOCK_BYTES, "\0")
        inner = Digest::SHA256.digest(padded(key, INNER_PAD) + message.b)
        Digest::SHA256.hexdigest(padded(key, OUTER_PAD) + inner)
      end

      def padded(key, pad) = key.bytes.map { |byte| byte ^ pad }.pack("C*")
    end
  end
end
