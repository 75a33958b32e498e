# frozen_string_literal: true

require "fileutils"

module Rackbench
  module Probe
    # The config.ru a deployment serves when its suite says explain: true:
    # the app's own config.ru, built by Rack as the server would, inside the
    # probe middleware. It changes into the app's folder first, so the app
    # sees the folder it would have (the server was started in the wrapper's).
    #
    #   rackup = Wrapper.write(app: "apps/rack/config.ru", dir: deployment_dir)   # => ".../explain.ru"
    #   Wrapper.write(app:, dir:, queue_corrections_us: {"10.0.0.3" => -1200})  # load from other hosts (Hosts::Clock)
    #   Wrapper.probe_dir(deployment_dir)   # where the server's processes write their records
    module Wrapper
      MIDDLEWARE = File.join(__dir__, "middleware.rb")

      module_function

      def probe_dir(dir) = File.join(dir, "probe")

      def write(app:, dir:, queue_corrections_us: {})
        FileUtils.mkdir_p(probe_dir(dir))
        path = File.join(dir, "explain.ru")
        File.write(path, <<~RUBY)
          # Written by rackbench (explain: true): #{File.basename(app)} of #{File.basename(File.dirname(app))}, inside the probe.
          Dir.chdir(#{File.dirname(app).inspect})
          require #{MIDDLEWARE.inspect}
          inner = Rack::Builder.parse_file(#{app.inspect})
          inner = inner.first if inner.is_a?(Array) # Rack 2 returns [app, options]
          use Rackbench::Probe::Middleware, dir: #{probe_dir(dir).inspect}, queue_corrections_us: #{queue_corrections_us.inspect}
          run inner
        RUBY
        path
      end
    end
  end
end
