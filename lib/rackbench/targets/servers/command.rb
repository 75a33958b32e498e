# frozen_string_literal: true

require "shellwords"

module Rackbench
  module Servers
    # Any HTTP server, Ruby or not, started from a command template. The
    # placeholders {port}, {socket}, {app}, {app_dir}, {dir}, {workers} and
    # {threads} are filled in per instance; readiness is a real HTTP answer at
    # ready_url (a path, or a loopback URL whose path is used).
    #
    #   - {server: command, label: "puma via command", threads: 4,
    #      command: "puma -b tcp://127.0.0.1:{port} -t {threads}:{threads} {app}"}
    #   - {server: command, bind: unix, command: "my-server --socket {socket}", ready_url: /health}
    class Command < Base
      NAME = "command"
      GEM = nil
      PLACEHOLDERS = %w[port socket app app_dir dir workers threads].freeze
      knob :command, %i[string list], doc: "the command template; placeholders {#{PLACEHOLDERS.join("}, {")}}"
      knob :ready_url, :string, default: "/", doc: "path (or loopback URL) that answers HTTP once the server is ready"
      knob :workers, :whole, min: 0, default: 1, doc: "value of {workers}"
      knob :threads, :whole, min: 0, default: 1, doc: "value of {threads}"
      knob :stop_signal, :string, default: "TERM", doc: "signal for a graceful stop"

      # A bind whose default target is the readiness path, since the Deployment
      # waits on bind.target.
      class ReadyBind < Base::Bind
        attr_accessor :ready_path

        def target(path = nil) = super(path || ready_path || "/")
      end

      class << self
        def installed? = true
        def version = nil
        def unavailable_reason = nil
      end

      def validate!
        super
        template = config["command"]
        unless template.is_a?(String) || (template.is_a?(Array) && template.all?(String) && template.any?)
          raise config_error("command", "\"command\" must be a command template (string or list), got #{template.inspect}")
        end

        needed = unix? ? "{socket}" : "{port}"
        unless words.join(" ").include?(needed)
          raise config_error("command", "\"command\" must contain #{needed} to listen where rackbench tells it")
        end

        unknown = words.join(" ").scan(/\{(\w+)\}/).flatten - PLACEHOLDERS
        if unknown.any?
          raise config_error("command", "unknown placeholder {#{unknown.first}}; known: {#{PLACEHOLDERS.join("}, {")}}")
        end

        ready_path
        Signal.list.fetch(stop_signal.delete_prefix("SIG")) do
          raise config_error("stop_signal", "unknown stop_signal #{stop_signal.inspect}")
        end
        self
      end

      def label = config["label"] || "command: #{words.first}"

      def bind(dir)
        bound = super
        ReadyBind.new(port: bound.port, socket_path: bound.socket_path).tap { |b| b.ready_path = ready_path }
      end

      def command(app:, bind:, dir:)
        values = { "port" => bind.port, "socket" => bind.socket_path, "app" => app, "app_dir" => File.dirname(app),
                   "dir" => dir, "workers" => setting("workers"), "threads" => setting("threads") }
        words.map { |w| w.gsub(/\{(\w+)\}/) { values.fetch(Regexp.last_match(1)).to_s } }
      end

      def stop_signal = setting("stop_signal")

      private

      def words
        template = config["command"]
        template.is_a?(Array) ? template : Shellwords.split(template.to_s)
      end

      def ready_path
        url = setting("ready_url")
        return url if url.start_with?("/")

        path = url[%r{\Ahttp://[^/]+(/\S*)?\z}, 1]
        unless url.start_with?("http://")
          raise config_error("ready_url", "ready_url must be a path or an http:// URL, got #{url.inspect}")
        end

        path || "/"
      end
    end

    register("command", Command)
  end
end
