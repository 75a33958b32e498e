# frozen_string_literal: true

require "json"
require "psych"
require_relative "hmac"

module Rackbench
  class Store
    # Keeps a suite's secrets (Suite::Secrets) out of what the store keeps:
    # each secret value is written as a marker with a short digest,
    # "[redacted:3fa2c1d0]", so two runs can be told apart (same value or
    # not) without the value. The Store applies it to every text and JSON
    # document it writes (the suite file, settings, machine, commands, log
    # tails, results), so reports, exports and re-rendered runs, which read
    # only the store, never see a secret.
    #
    #   redaction = Redaction.new(Suite::Secrets.new(suite), key: store_key)
    #   redaction.text("postgres://app:pw@127.0.0.1/app")   # => "postgres://app:[redacted:3fa2c1d0]@127.0.0.1/app"
    #   redaction.data({"env" => {"SECRET_KEY_BASE" => "x"}})  # => {"env" => {"SECRET_KEY_BASE" => "[redacted:...]"}}
    #   redaction.yaml(suite_text)                              # the suite file with each env value's marker in place
    #
    # The digest is HMAC-SHA256 keyed with the store's own random key (kept
    # in the store's store_keys table, never in a report, an export or a
    # log), its first DIGEST_CHARS hex digits. Not a plain SHA-256: a
    # database password is often a dictionary word ("postgres", "secret"),
    # and a plain digest printed in a CI artifact would let anyone confirm
    # such a guess offline; keyed, a report's reader can test nothing, and
    # runs in one store still compare (the same key gives the same marker).
    # Runs of different stores do not compare (each has its own key).
    class Redaction
      DIGEST_CHARS = 8
      MARKER = /\[redacted:\h{#{DIGEST_CHARS}}\]/
      # A secret shorter than this is replaced where it is known to be (an
      # env value, a URL's password) but not in free text, where a short
      # value ("app") would blot out unrelated words.
      MIN_FREE_TEXT_CHARS = 6

      def self.marked?(text) = text.is_a?(String) && text.match?(MARKER)

      def initialize(secrets, key:)
        @secrets = secrets
        @key = key
        @free = secrets.values.select { |v| v.size >= MIN_FREE_TEXT_CHARS }
      end

      def marker(value) = "[redacted:#{Hmac.sha256_hex(@key, value.to_s)[0, DIGEST_CHARS]}]"

      # Free text: URL passwords and the suite's secret values replaced (any
      # encoding: a log's bytes too).
      def text(string)
        return string unless string.is_a?(String)

        bytes = string.valid_encoding? ? string : string.b
        out = bytes.gsub(Suite::Secrets::URL_PASSWORD) do
          user, password = Regexp.last_match.captures
          "#{user}:#{password.match?(MARKER) ? password : marker(password)}@"
        end
        out = @free.reduce(out) do |acc, value|
          value = value.b if acc.encoding == Encoding::BINARY
          acc.include?(value) ? acc.gsub(value, marker(value)) : acc
        end
        out.force_encoding(string.encoding)
      end

      # A JSON-like document: every env: mapping's secret names get a marker
      # for their value, every string is scrubbed as text.
      def data(node)
        case node
        when Hash then node.to_h { |k, v| [k, k == "env" && v.is_a?(Hash) ? env(v) : data(v)] }
        when Array then node.map { |v| data(v) }
        when String then text(node)
        else node
        end
      end

      # One env: mapping.
      def env(vars) = vars.to_h { |name, value| [name, env_value(name, value)] }

      def env_value(name, value)
        return value if @secrets.public?(name)

        @secrets.name?(name) && !value.nil? ? marker(value) : data(value)
      end

      # The suite file as typed, with each env: value that holds a secret
      # replaced in place (as a double-quoted string), then scrubbed as text.
      def yaml(source)
        return source unless source.is_a?(String)

        starts = source.lines.each_with_object([0]) { |line, acc| acc << (acc.last + line.size) }
        out = source.dup
        env_scalars(Psych.parse(source)).sort_by { |node, _| -starts[node.start_line] - node.start_column }
                                        .each do |node, name|
          redacted = env_value(name, node.value)
          from = starts[node.start_line] + node.start_column
          to = starts[node.end_line] + node.end_column
          # a block scalar's span takes its line ends: keep them
          out[from...to] = JSON.generate(redacted) + out[from...to][/\n*\z/] unless redacted == node.value
        end
        text(out)
      rescue Psych::SyntaxError
        text(source)
      end

      # Every file under dir (the run's folder: the logs its servers and
      # commands wrote, what the engine printed) with the secrets scrubbed
      # as text, rewritten only where one was found.
      def scrub_files(dir)
        Dir.glob(File.join(dir, "**", "*"), File::FNM_DOTMATCH).each do |path|
          next unless File.file?(path) && !File.symlink?(path)

          bytes = File.binread(path)
          scrubbed = text(bytes)
          File.binwrite(path, scrubbed) unless scrubbed == bytes
        end
      end

      # The stored data of a run (its settings) with each marked value put
      # back from typed (the suite file as it is now) where its marker is
      # the same: what a resumed run starts its servers with. ConfigError
      # naming the key when a value is missing there or changed.
      def restore(stored, typed, path = [])
        case stored
        when Hash
          stored.to_h do |key, value|
            at = typed.is_a?(Hash) ? typed[key] : nil
            next [key, restore(value, at, path + [key])] unless key == "env" && value.is_a?(Hash)

            [key, value.to_h { |n, v| [n, restored(v, at.is_a?(Hash) ? at[n] : nil, path + [key, n]) { |t| env_value(n, t) }] }]
          end
        when Array then stored.each_with_index.map { |value, i| restore(value, typed.is_a?(Array) ? typed[i] : nil, path + [i]) }
        else restored(stored, typed, path) { |t| data(t) }
        end
      end

      private

      def restored(stored, typed, path)
        return stored unless self.class.marked?(stored)
        return typed if !typed.nil? && yield(typed) == stored

        raise ConfigError, "#{path.join(".")}: its value was kept secret (stored as #{stored.inspect}) and the suite file " \
                           "no longer has it as it was: put it back (or move it to an env_file:)"
      end

      # [[scalar node, env name]] of every env: mapping in the document.
      def env_scalars(node)
        return [] unless node

        pairs = node.is_a?(Psych::Nodes::Mapping) ? node.children.each_slice(2).to_a : []
        own = pairs.select { |k, v| k.is_a?(Psych::Nodes::Scalar) && k.value == "env" && v.is_a?(Psych::Nodes::Mapping) }
                   .flat_map { |_, v| v.children.each_slice(2).select { |_, s| s.is_a?(Psych::Nodes::Scalar) } }
                   .map { |k, v| [v, k.value] }
        own + Array(node.children).flat_map { |child| env_scalars(child) }
      end
    end
  end
end
