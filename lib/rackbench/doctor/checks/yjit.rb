# frozen_string_literal: true

module Rackbench
  module Doctor
    # YJIT built into the Ruby but off everywhere: production Rubies that have
    # it usually run it, and it changes which config wins.
    class Yjit < Check
      NAME = "yjit"

      def findings
        return [] unless machine.yjit_available
        return [] if env_on? || shapes.any?(&:yjit)

        where = subject.suite? ? subject.where_key(["servers"]) : "the servers' Ruby (#{RUBY_VERSION}): RUBY_YJIT_ENABLE unset"
        fix = subject.suite? ? "yjit: true on the server entries (or one config with, one without)" : "RUBY_YJIT_ENABLE=1"
        [note("this Ruby has YJIT but no server runs it#{" (on Ruby 3.1 it is experimental)" if RUBY_VERSION < "3.2"}",
              where: where, fix: fix)]
      end

      private

      def env_on?
        subject.env["RUBYOPT"].to_s.include?("--yjit") || subject.env["RUBY_YJIT_ENABLE"].to_s.match?(/\A(1|true)\z/)
      end
    end

    register("yjit", Yjit)
  end
end
