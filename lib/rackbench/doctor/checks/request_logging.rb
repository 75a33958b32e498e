# frozen_string_literal: true

module Rackbench
  module Doctor
    # A line written per request (Rack::CommonLogger, puma's log_requests,
    # Rails at :info or :debug, Sinatra's logging): the benchmark then
    # measures a logger and a disk as much as the server.
    class RequestLogging < Check
      NAME = "request_logging"
      RAILS_LOGGING_LEVELS = %w[debug info].freeze

      def findings = rack_loggers + server_loggers + rails_logging + sinatra_logging

      private

      def rack_loggers
        files.grep("config.ru", /\buse\s+Rack::(?:CommonLogger|Logger)\b/).map do |number, line|
          warning("config.ru logs every request (#{line.strip})", where: files.where("config.ru", number),
                                                                  fix: "leave the logger out of config.ru while benchmarking")
        end
      end

      def server_loggers
        shapes.select { |s| s.log_requests == true }.map do |s|
          warning("#{s.label} logs every request", where: s.where["log_requests"],
                                                   fix: "remove log_requests (or `quiet false`) from the server's config")
        end
      end

      def rails_logging
        return [] unless files.rails?

        env_name, = subject.app_env
        name = "config/environments/#{env_name}.rb"
        return [] unless files.exist?(name)

        number, line = files.grep(name, /config\.log_level\s*=/).last
        level = number ? RubyValue.new(env: subject.env).of(line[/=\s*(.+)/, 1]) : nil
        return [] if RubyValue.known?(level) && !level.nil? && !RAILS_LOGGING_LEVELS.include?(level.to_s)

        read = RubyValue.known?(level) ? level.inspect : "unread"
        said = number ? "config.log_level #{read}" : "no config.log_level"
        [warning("Rails logs every request (#{said}: :info and :debug write lines per request)",
                 where: files.where(name, number), fix: "config.log_level = :warn for the benchmark (or RAILS_LOG_LEVEL=warn " \
                                                        "where the file reads it)")]
      end

      def sinatra_logging
        Dir[File.join(files.dir, "{config.ru,*.rb,app/**/*.rb,lib/**/*.rb}")].first(200).flat_map do |path|
          name = path.delete_prefix("#{files.dir}/")
          files.grep(name, /\A\s*(?:enable\s+:logging|set\s+:logging\s*,\s*true)/).map do |number, line|
            warning("Sinatra logs every request (#{line.strip})", where: files.where(name, number),
                                                                  fix: "disable :logging while benchmarking")
          end
        end
      end
    end

    register("request_logging", RequestLogging)
  end
end
