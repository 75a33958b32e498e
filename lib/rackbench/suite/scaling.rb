# frozen_string_literal: true

require_relative "endpoint_scaling"

module Rackbench
  class Suite
    # A suite's smoke: and scale: blocks, which --smoke and --scale apply
    # (smoke wins when both are given). Included in Suite; errors name the
    # file, the line and the key (Suite#error).
    #
    #   scale:
    #     duration_s: 20                      # a plain value replaces the suite's
    #     concurrency: {500: 100, 250: 50}    # a mapping rewrites those values wherever the key appears
    #     endpoints:                          # ... or only for the endpoints named (000: the sleep test's
    #       sleep: {concurrency: {500: 100}}  #     clients set its workers, hello world's do not)
    #     pin: false                          # like the article: server and client on the same CPUs
    #     workers: by_cpus                    # workers x the server's CPUs here / the article's (article: cpus:)
    #     note: why the scaling keeps the article's question
    #
    # What changed is kept in data["scaled"] ({"by", "changes" => [{"key",
    # "from", "to", "endpoint"?}], "cpus"?, "note"?}), so every output can say
    # what was scaled and claims can map the article's values the same way.
    module Scaling
      include EndpointScaling

      BY_CPUS = "by_cpus"

      private

      # Keys of smoke:/scale: must be suite keys; a mapping must map numbers to numbers.
      def validate_overrides(block)
        (@data[block] || {}).each do |key, value|
          next validate_endpoint_scaling(block, value) if key == "endpoints" && value.is_a?(Hash)
          next validate_by_cpus(block, key) if value == BY_CPUS
          next validate_note(block, value) if key == "note"

          # A mapping may rewrite a server knob too (workers: {4: 2}); a plain value must be a suite key.
          known = value.is_a?(Hash) || KEYS.key?(key)
          raise error([block, key], "unknown key; known keys: #{KEYS.keys.join(", ")}") unless known
          raise error([block, key], "cannot be overridden in #{block}") if %w[name smoke scale article].include?(key)

          validate_mapping([block, key], value) if value.is_a?(Hash)
        end
      end

      def validate_mapping(key_path, value)
        bad = value.find { |from, to| !from.is_a?(Numeric) || !to.is_a?(Numeric) }
        raise error(key_path, "a mapping must map numbers to numbers (like {500: 100}), got #{bad.inspect}") if bad
      end

      def validate_note(block, value)
        raise error([block, "note"], "must be a sentence (a string), got #{value.inspect}") unless value.is_a?(String)
      end

      # workers: by_cpus needs the article's CPU count (article: cpus: 4).
      def validate_by_cpus(block, key)
        cpus = @data.dig("article", "cpus")
        return if cpus.is_a?(Integer) && cpus.positive?

        raise error([block, key], "#{BY_CPUS} scales by the article's CPUs: the suite's article: needs cpus: " \
                                  "(a whole number > 0), got #{cpus.inspect}")
      end

      # pin: the command line's --[no-]pin, which wins over the block's and the
      # suite's (so workers: by_cpus counts the CPUs the server will get).
      def apply_overrides(block, pin: nil)
        given = @data[block].reject { |key, value| key == "note" || value == BY_CPUS }
        changes = given.flat_map { |key, value| apply_override(key, value) }
        scaled = { "by" => block, "changes" => changes }
        # After the block's pin: is set, so the CPUs counted are those the server will get.
        by_cpus = @data[block].select { |_, value| value == BY_CPUS }.keys
        unless by_cpus.empty?
          scaled["cpus"] = cpus_here(pin.nil? ? @data["pin"] : pin)
          by_cpus.each { |key| changes.concat(map_everywhere(key, cpu_mapping(key, scaled["cpus"]))) }
        end
        scaled["note"] = @data[block]["note"] if @data[block]["note"]
        @data["scaled"] = scaled
      end

      # The changes one key of a block makes.
      def apply_override(key, value)
        return map_for_endpoints(value) if key == "endpoints" && value.is_a?(Hash)
        return map_everywhere(key, value) if value.is_a?(Hash)
        return [] if @data[key] == value

        change = { "key" => key, "from" => @data[key], "to" => value }
        @data[key] = value
        [change]
      end

      # {"server" => CPUs the server gets here, "pinned" => bool, "article" => the article's}
      def cpus_here(pin)
        pinning = Pinning.choose(enabled: pin)
        { "server" => pinning.enabled? ? pinning.server_cpus.size : Pinning.available_cpus.size,
          "pinned" => pinning.enabled?, "article" => @data.dig("article", "cpus") }
      end

      # {4 => 1, 8 => 2} for workers 4 and 8 when the server gets 1 CPU against the article's 4.
      def cpu_mapping(key, cpus)
        values = ([@data[key]] + @data["servers"].map { |s| s[key] }).grep(Integer)
        values.uniq.to_h { |v| [v, [(v * cpus["server"].to_f / cpus["article"]).round, 1].max] }
      end

      # Rewrites key's values by mapping in the suite, its endpoints and its server entries.
      def map_everywhere(key, mapping)
        changes = []
        remap(@data, key, mapping, changes)
        @data["endpoints"].each { |e| remap(e, key, mapping, changes) if e.is_a?(Hash) }
        @data["servers"].each { |s| remap(s, key, mapping, changes) }
        changes.uniq
      end

      # holder[key] through mapping, each change appended to changes.
      def remap(holder, key, mapping, changes)
        old = holder[key]
        return if old.nil?

        Array(old).each do |from|
          to = mapping.fetch(from, from)
          changes << { "key" => key, "from" => from, "to" => to } unless from == to
        end
        holder[key] = old.is_a?(Array) ? old.map { |v| mapping.fetch(v, v) }.uniq : mapping.fetch(old, old)
      end
    end
  end
end
