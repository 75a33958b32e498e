# frozen_string_literal: true

require "json"

module Rackbench
  class AppBundle
    # What an app's bundle loads on this machine, asked of Bundler itself
    # under the app's Gemfile: the gems of its Gemfile.lock less those of
    # groups not installed (an optional group not asked for, a `without`),
    # and the groups of each gem the Gemfile names. Made by AppBundle#installed
    # for `rackbench init` and the early "cannot run here" check.
    #
    #   installed = bundle.installed
    #   installed.gem?("falcon")           # => false: its group is optional
    #   installed.groups("falcon")         # => ["falcon"]
    #   installed.problem                  # => nil, or why Bundler could not tell (bundle install never ran)
    class Installed
      TIMEOUT_S = 60
      SCRIPT = <<~RUBY
        require "bundler"
        require "json"
        definition = Bundler.definition
        puts JSON.generate("gems" => definition.requested_specs.map(&:name),
                           "groups" => definition.dependencies.to_h { |d| [d.name, d.groups.map(&:to_s)] })
      RUBY

      attr_reader :problem

      def initialize(bundle)
        @bundle = bundle
        ran = Supervisor.run([RbConfig.ruby, "-e", SCRIPT], timeout_s: TIMEOUT_S, env: bundle.env, chdir: bundle.dir)
        if ran.status.success?
          data = JSON.parse(ran.stdout.lines.last.to_s)
          @gems = data["gems"]
          @groups = data["groups"]
        else
          @problem = "Bundler cannot load #{bundle.gemfile}: #{AppError.find(ran.stderr) || ran.stderr.lines.last.to_s.strip} " \
                     "(run `bundle install` in #{bundle.dir})"
        end
      rescue JSON::ParserError, ServiceError, SystemCallError => e
        @problem = "Bundler did not say what #{bundle.gemfile} installs: #{e.message}"
      end

      def gem?(name) = !@gems.nil? && @gems.include?(name)
      def groups(name) = (@groups || {}).fetch(name, [])

      # Why gem cannot start under this bundle here, with the fix; nil when it can.
      def unavailable_reason(gem)
        return problem if problem
        return nil if gem?(gem)
        return @bundle.missing(gem) unless @bundle.gems.key?(gem)

        group = (groups(gem) - ["default"]).first || gem
        "#{gem} is in #{File.basename(@bundle.lockfile)} but its group (#{group}) is not installed here " \
          "(optional, or left out with `without`): `bundle config set --local with #{group} && bundle install` " \
          "in #{@bundle.dir} adds it"
      end
    end
  end
end
