# frozen_string_literal: true

require "psych"

module Rackbench
  module Doctor
    # A Rails app's config/database.yml, read for its connection pool without
    # running its ERB: `<%= ENV.fetch("RAILS_MAX_THREADS") { 5 } %>` and the
    # like become their value (RubyValue), other tags make the value unknown.
    # Anchors and `<<: *default` are followed, so the line named is the one
    # that sets the pool.
    #
    #   yml = DatabaseYml.new(files, env: {})
    #   yml.pools("production")   # => [Pool(name: "primary", connections: 5, line: 4)]; nil when unknown
    class DatabaseYml
      NAME = "config/database.yml"
      RAILS_DEFAULT_POOL = 5
      Pool = Struct.new(:name, :connections, :line, keyword_init: true)

      def initialize(files, env:)
        @files = files
        @value = RubyValue.new(env: env)
      end

      def exist? = @files.exist?(NAME)

      # The pool of each database of the environment (one, or several under primary:, cache: ...).
      def pools(env_name)
        root = document or return []
        section = lookup(root, env_name) or return []
        databases = database_nodes(section)
        databases.map { |name, node| pool_of(name, node) }
      end

      private

      def document
        text = @files.lines(NAME).join.gsub(/<%=(.*?)%>/m) do
          value = @value.of(Regexp.last_match(1))
          RubyValue.known?(value) ? value.to_s : "__unknown__"
        end
        @anchors = {}
        root = Psych.parse(text.gsub(/<%.*?%>/m, ""))&.children&.first
        index_anchors(root)
        root
      rescue Psych::SyntaxError
        nil
      end

      def index_anchors(node)
        return unless node.respond_to?(:children) && node.children

        @anchors[node.anchor] = node if node.respond_to?(:anchor) && node.anchor
        node.children.each { |c| index_anchors(c) }
      end

      def resolve(node) = node.is_a?(Psych::Nodes::Alias) ? @anchors[node.anchor] : node

      def pairs(node)
        node = resolve(node)
        node.is_a?(Psych::Nodes::Mapping) ? node.children.each_slice(2).to_a : []
      end

      def lookup(node, key)
        pairs(node).reverse_each { |k, v| return resolve(v) if k.respond_to?(:value) && k.value == key }
        pairs(node).each do |k, v|
          next unless k.value == "<<"

          found = lookup(v, key)
          return found if found
        end
        nil
      end

      # A three-tier config (primary:, cache: ...) has mappings of databases; a plain one is itself the database.
      def database_nodes(section)
        nested = pairs(section).select { |k, v| k.value != "<<" && resolve(v).is_a?(Psych::Nodes::Mapping) }
        return [["primary", section]] if nested.empty? || !nested.all? { |_, v| database?(v) }

        nested.map { |k, v| [k.value, resolve(v)] }
      end

      def database?(node) = %w[adapter database pool].any? { |key| lookup(node, key) }

      def pool_of(name, node)
        key = %w[pool max_connections].find { |k| lookup(node, k) }
        return Pool.new(name: name, connections: RAILS_DEFAULT_POOL, line: nil) unless key

        pool = lookup(node, key)
        size = pool.value.match?(/\A\d+\z/) ? pool.value.to_i : nil
        Pool.new(name: name, connections: size, line: pool.start_line + 1)
      end
    end
  end
end
