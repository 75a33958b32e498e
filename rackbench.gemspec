# frozen_string_literal: true

require_relative "lib/rackbench/version"

Gem::Specification.new do |spec|
  spec.name = "rackbench"
  spec.version = Rackbench::VERSION
  spec.authors = ["rackbench developers"]
  spec.summary = "Reproducible benchmarks of Ruby web application servers"
  spec.description = "Starts Ruby app servers and proxies in chosen configurations, drives load " \
                     "through standard workloads, and keeps every measurement in SQLite."
  spec.license = "MIT"
  spec.required_ruby_version = ">= 3.1"

  # The git-tracked files only: servers write logs and pid files into apps/, and
  # npm's node_modules is installed at build time, not shipped.
  spec.files = `git ls-files -z`.split("\x0").select do |f|
    f.start_with?("lib/", "exe/", "apps/", "ext/") || %w[README.md CHANGELOG.md LICENSE].include?(f)
  end
  # The native load engine, built by `gem install` (see ext/rackbench_load/extconf.rb).
  spec.extensions = ["ext/rackbench_load/extconf.rb"]
  spec.bindir = "exe"
  spec.executables = ["rackbench"]
  spec.require_paths = ["lib"]

  spec.add_dependency "prime" # lib/rackbench/targets/apps.rb; a bundled gem since Ruby 3.1, so an app's bundle must name it
  spec.add_dependency "rack", ">= 2.2"
  spec.add_dependency "sequel", ">= 5.0"
  spec.add_dependency "sqlite3", ">= 1.4"
  spec.metadata["rubygems_mfa_required"] = "true"
end
