# frozen_string_literal: true

require_relative "../init/detection"
require_relative "../init/starter"

module Rackbench
  module CLI
    # rackbench init [APP_DIR] [--output FILE] [--force] [--no-probe]: writes a
    # commented starter suite (rackbench.yml) for the app in APP_DIR (default:
    # the current folder), and says what it found and what it could not.
    class Init
      def initialize(argv, out, err)
        @argv = argv
        @out = out
        @err = err
        @probe = true
        @force = false
        @output = nil
      end

      def call
        dir = parse
        detection = Rackbench::Init::Detection.new(dir)
        path = @output || File.join(detection.dir, "rackbench.yml")
        raise ConfigError, "#{path} exists: pass --force to replace it, or --output FILE" if File.exist?(path) && !@force

        starter = Rackbench::Init::Starter.new(detection)
        @out.puts "rackbench init: #{detection.framework} app in #{detection.dir}; " \
                  "servers in its bundle: #{starter.servers.empty? ? "none" : starter.servers.join(", ")}"
        starter.probe! if @probe
        File.write(path, starter.yaml)
        report(starter, path)
        0
      rescue ServiceError => e
        @err.puts "rackbench init: #{e.message}"
        @err.puts e.log_tail.to_s.lines.last(10).join.gsub(/^/, "  | ") if e.log_tail
        1
      end

      private

      def parse
        OptionParser.new do |o|
          o.banner = "Usage: rackbench init [APP_DIR] [options]"
          o.on("--output FILE", "where to write the suite (default APP_DIR/rackbench.yml)") { |f| @output = f }
          o.on("--force", "replace an existing file") { @force = true }
          o.on("--no-probe", "do not start the app to try each path") { @probe = false }
        end.parse!(@argv)
        raise ConfigError, "init takes one APP_DIR, got #{@argv.join(" ")}" if @argv.size > 1

        @argv.first || Dir.pwd
      end

      def report(starter, path)
        @out.puts "  endpoints: #{starter.kept.join(", ")}"
        starter.dropped.each { |p, why| @out.puts "  left out #{p}: #{why}" }
        starter.detection.notes.uniq.each { |n| @out.puts "  note: #{n}" }
        @out.puts "wrote #{path}; run it with: rackbench run #{File.basename(path)} --smoke"
      end
    end
  end
end
