# frozen_string_literal: true

module Rackbench
  module Servers
    # WEBrick through rackup: one process, a thread per connection. TCP only.
    #
    #   - {server: webrick}
    class Webrick < Base
      NAME = "webrick"
      GEM = "webrick"
      starter 8

      def self.supports_unix? = false

      def self.unavailable_reason
        return super if super

        "gem rackup is not installed" unless Gem::Specification.find_all_by_name("rackup").any?
      end

      def command(app:, bind:, **)
        [*gem_bin("rackup", "rackup"), "--server", "webrick", "--host", bind.address,
         "--port", bind.port.to_s, "--env", "production", app]
      end
    end

    register("webrick", Webrick)
  end
end
