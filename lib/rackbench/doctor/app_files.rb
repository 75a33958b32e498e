# frozen_string_literal: true

module Rackbench
  module Doctor
    # The files of the app under examination, read once, with line numbers
    # for the findings to name:
    #
    #   files = AppFiles.new("~/shop")
    #   files.lines("config/puma.rb")        # => ["workers 2\n", ...] or nil
    #   files.grep("config.ru", /Rack::CommonLogger/)   # => [[3, "use Rack::CommonLogger\n"]]
    #   files.where("config/puma.rb", 3)     # => "config/puma.rb:3"
    #   files.rails?, files.gems             # {"puma" => "6.4.3", ...} from Gemfile.lock
    class AppFiles
      attr_reader :dir

      def initialize(dir)
        @dir = File.expand_path(dir)
        @lines = {}
      end

      def path(name) = File.join(dir, name)
      def exist?(name) = File.file?(path(name))

      def lines(name)
        @lines.fetch(name) { @lines[name] = exist?(name) ? File.readlines(path(name)) : nil }
      end

      # [[line number, line], ...] of the lines outside comments that match.
      def grep(name, pattern)
        (lines(name) || []).each_with_index.filter_map do |line, i|
          [i + 1, line] if line.sub(/#.*/, "").match?(pattern)
        end
      end

      def where(name, line = nil) = line ? "#{name}:#{line}" : name

      def rails? = exist?("config/application.rb") || gems.key?("railties")

      # The gems of the app's Gemfile.lock (beside config.ru or above it), name => version.
      def gems
        @gems ||= begin
          bundle = AppBundle.for(path("config.ru"))
          bundle && File.file?(bundle.lockfile) ? bundle.gems : {}
        end
      end
    end
  end
end
