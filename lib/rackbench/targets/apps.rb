# frozen_string_literal: true

require File.join(Rackbench::ROOT, "apps", "shared", "catalogue")

module Rackbench
  # The bundled workload apps under apps/ (rack, sinatra, roda, rails: one
  # folder each with a config.ru) and the catalogue of their endpoints
  # (apps/shared/catalogue.rb: each endpoint's route, handler and expected
  # answer, mounted by every app). The Runner checks each cell's first answer
  # against it (Apps.expectation) and `rackbench verify` checks every
  # endpoint (Apps::Verification).
  #
  #   Apps.names                             # => ["rack", "rails", "roda", "sinatra"]
  #   Apps.expectation("roda", "/sleep/50")  # => Expectation: 200 text/plain "slept 50 ms"
  module Apps
    DIR = File.join(ROOT, "apps")
    SQLITE_ENV = "RACKBENCH_SQLITE_PATH"
    FILES_ENV = Workloads::Bodies::FILES_ENV
    SENDFILE_ENV = Workloads::Bodies::SENDFILE_ENV

    autoload :Expectation, "rackbench/targets/apps/expectation"
    autoload :Verification, "rackbench/targets/apps/verification"

    def self.names
      Dir[File.join(DIR, "*", "config.ru")].map { |f| File.basename(File.dirname(f)) }.sort
    end

    def self.bundled?(name) = names.include?(name.to_s)

    def self.path(name)
      raise ConfigError, "no bundled app #{name.inspect}; bundled apps: #{names.join(", ")}" unless bundled?(name)

      File.join(DIR, name.to_s, "config.ru")
    end

    # The environment every bundled app gets: where /db keeps its SQLite file
    # when the suite names no database service, and where /file keeps its files.
    def self.default_env(dir) = { SQLITE_ENV => File.join(dir, "app.sqlite3"), FILES_ENV => File.join(dir, "files") }

    # What app must answer at path (its query string included), or nil when
    # the app is not bundled or the path is none of the catalogue's. env is the
    # environment the app got (it tells which database /db uses).
    def self.expectation(app, path, env = {})
      bundled?(app) ? catalogue_expectation(path, env) : nil
    end

    # What an app that serves the catalogue must answer at path (any app, as
    # `rackbench verify` holds one to it), or nil when the path is none of it.
    def self.catalogue_expectation(path, env = {})
      endpoints.each do |endpoint|
        expectation = Expectation.at(endpoint, path, env)
        return expectation if expectation
      end
      nil
    end

    # The catalogue's entries (apps/shared/catalogue.rb, which the four apps
    # mount): Workloads::Endpoint, the one model of an endpoint, each with the
    # answer it expects (Expectation.at).
    def self.endpoints = Workloads::CATALOGUE

    # fib(n), as the checks compute it.
    def self.fibonacci(number) = Workloads.expected_fibonacci(number)
  end
end
