# frozen_string_literal: true

module Rackbench
  module Doctor
    # What an app's own server config file (config/puma.rb, config/unicorn.rb)
    # sets, read line by line without running it: workers, threads, preload,
    # environment and request logging, each with its line, by the directives
    # the server's adapter declares (Servers::Base.facts). Values come from
    # RubyValue: literals, ENV.fetch with a default, and earlier assignments.
    #
    #   file = ServerFile.read(files, "config/puma.rb", env: {})
    #   file["threads"]   # => Setting(value: 5, line: 7) or nil when the file does not say
    #   file.where("threads")   # => "config/puma.rb:7"
    class ServerFile
      Setting = Struct.new(:value, :line)

      # The servers whose own files doctor reads: {name => "config/NAME.rb"} (their adapters' facts).
      def self.app_files
        Servers.names.map { |name| Servers.fetch(name) }.select { |a| a.facts[:config_file] }
               .to_h { |a| [a.server_name, a.facts[:config_file]] }
      end

      # How server's config file is read: {key => [pattern of a line, how its arguments become the value]}, or nil.
      def self.directives(server) = Servers.names.include?(server) ? Servers.fetch(server).facts[:directives] : nil

      ASSIGNMENT = /\A([a-z_]\w*)\s*=\s*(.+)\z/

      attr_reader :name, :server

      # The file's settings, or nil when the app has no such file.
      def self.read(files, name, server:, env:)
        lines = files.lines(name) or return nil
        new(name, server, lines, env)
      end

      def initialize(name, server, lines, env)
        @name = name
        @server = server
        @settings = {}
        vars = {}
        value = RubyValue.new(env: env, vars: vars)
        lines.each_with_index do |raw, i|
          line = raw.sub(/\s+#.*/, "").strip
          next if line.empty? || line.start_with?("#")

          if (m = line.match(ASSIGNMENT)) then vars[m[1]] = value.of(m[2])
          else directive(line, value, i + 1)
          end
        end
      end

      def [](key) = @settings[key]
      def where(key) = @settings[key] && "#{name}:#{@settings[key].line}"

      private

      # Directives at the top level only: those inside a block (on_worker_boot
      # ...) end with `do` or sit in a nested block, which the patterns skip.
      def directive(line, value, number)
        self.class.directives(server).each do |key, (pattern, reader)|
          m = line.match(pattern) or next
          args = m.captures.size > 1 ? m.captures : m[1]
          @settings[key] = Setting.new(reader.call(args, value), number)
        end
      end
    end
  end
end
