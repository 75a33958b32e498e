# frozen_string_literal: true

module Rackbench
  # A registry of named plugins (servers, engines, report formats), in roda's style:
  # `fetch("puma")` requires "rackbench/targets/servers/puma" on first use, and that file
  # registers its class. A name with no file, or a file that did not register,
  # raises UnknownName listing the names that exist.
  class Registry
    def initialize(kind, dir)
      @kind = kind
      @dir = dir
      @classes = {}
    end

    def register(name, klass)
      @classes[name.to_s] = klass
    end

    def fetch(name)
      name = name.to_s
      return @classes[name] if @classes.key?(name)

      require "rackbench/#{@dir}/#{name}" if names.include?(name)
      @classes.fetch(name) do
        raise UnknownName, "unknown #{@kind} #{name.inspect}; known: #{names.join(", ")}"
      end
    end

    # Every name with a file in lib/rackbench/DIR/, whether or not it is loaded yet.
    def names
      Dir[File.join(__dir__, @dir, "*.rb")].map { |f| File.basename(f, ".rb") }
                                           .reject { |n| n == "base" }.sort
    end

    def all
      names.map { |n| fetch(n) }
    end

    # Extended by a namespace module that holds a REGISTRY, so callers say
    # Servers.fetch("puma"), Servers.names, Servers.all, Servers.register(...).
    module Facade
      def register(name, klass) = self::REGISTRY.register(name, klass)
      def fetch(name) = self::REGISTRY.fetch(name)
      def names = self::REGISTRY.names
      def all = self::REGISTRY.all
    end
  end
end
