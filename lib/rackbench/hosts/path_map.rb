# frozen_string_literal: true

module Rackbench
  module Hosts
    # Where the paths of rackbench's machine are on a server host: the run's
    # folder is the host's run folder (RunFolder), a shipped app and the
    # probe's code are where they were copied, and any other path (Ruby, the
    # gems, system binaries, an app that was not shipped) is the same on both.
    # Applied to what a server on the host is given: its argv, env, folder, and
    # the files rackbench generated for it (server and proxy configs,
    # explain.ru), which name the run's folders in their text.
    #
    #   map = PathMap.new("/home/me/results/runs/7" => "/srv/rb/runs/m-41-7")
    #   map.call("/home/me/results/runs/7/01-unicorn/d1/unicorn.rb")  # => "/srv/rb/runs/m-41-7/01-unicorn/d1/unicorn.rb"
    #   map.call("listen \"/home/me/results/runs/7/s.sock\"")        # a path inside text too
    #   map.call("/home/me/results/runs/70")                           # unchanged: another folder
    class PathMap
      # A path ends where a path character does not follow.
      BOUNDARY = /(?![\w.-])/

      attr_reader :prefixes

      # prefixes: {local folder => the host's}; the longest local folder wins.
      def initialize(prefixes = {})
        @prefixes = {}
        prefixes.each { |local, remote| add(local, remote) }
      end

      def add(local, remote)
        @prefixes[File.expand_path(local)] = remote
        sorted = @prefixes.keys.sort_by { |p| -p.size }
        @pattern = Regexp.union(sorted.map { |p| /#{Regexp.escape(p)}#{BOUNDARY}/ })
        self
      end

      def call(text)
        return text if @prefixes.empty? || !text.is_a?(String)

        text.gsub(@pattern) { |local| @prefixes.fetch(local) }
      end

      def argv(words) = words.map { |w| call(w.to_s) }
      def env(vars) = vars.transform_values { |v| call(v.to_s) }
    end
  end
end
