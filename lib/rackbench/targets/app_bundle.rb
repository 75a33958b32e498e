# frozen_string_literal: true

require "digest"
require_relative "app_bundle/installed"

module Rackbench
  # The app's own bundle: the Gemfile in the config.ru's folder or an ancestor
  # (rackbench's own Gemfile does not count, so the bundled apps run as
  # before). The Deployment asks it for the argv and env that start a server
  # under that bundle, and for the version of the server gem that boots:
  #
  #   bundle = AppBundle.for("~/shop/config.ru")     # nil without a Gemfile
  #   bundle.check!("unicorn")    # ServiceError: "... has no unicorn: bundle add unicorn"
  #   bundle.wrap([ruby, ".../gems/puma-8.0.2/bin/puma", "-b", ...])
  #   # => [ruby, ".../bundle", "exec", "puma", "-b", ...]
  #   bundle.env                  # {"BUNDLE_GEMFILE" => "~/shop/Gemfile", "RUBYOPT" => nil, ...}
  #   bundle.version("puma")      # "6.4.3", from Gemfile.lock
  #   bundle.to_h                 # provenance: gemfile, lock digest, app Ruby, gems
  #   bundle.installed.unavailable_reason("falcon")   # its group is optional: how to add it
  class AppBundle
    # What rackbench's own `bundle exec` leaves in the environment; the app's
    # bundle sets its own.
    INHERITED_ENV = %w[RUBYOPT RUBYLIB BUNDLER_SETUP BUNDLE_BIN_PATH BUNDLER_VERSION BUNDLE_LOCKFILE].freeze

    attr_reader :gemfile, :lockfile

    # The bundle of the app at app_path (a config.ru or its folder), or nil;
    # gemfile: another Gemfile of the app (a server entry's env BUNDLE_GEMFILE,
    # relative to the app's folder), with its own lock beside it.
    def self.for(app_path, gemfile: nil)
      dir = File.expand_path(File.directory?(app_path) ? app_path : File.dirname(app_path))
      return new(File.expand_path(gemfile, dir)) if gemfile

      own = File.join(ROOT, "Gemfile")
      loop do
        gemfile = File.join(dir, "Gemfile")
        return nil if File.expand_path(gemfile) == own

        return new(gemfile) if File.file?(gemfile)

        parent = File.dirname(dir)
        return nil if parent == dir

        dir = parent
      end
    end

    def initialize(gemfile)
      @gemfile = gemfile
      @lockfile = "#{gemfile}.lock"
    end

    def dir = File.dirname(gemfile)

    # Name => version of every gem in the Gemfile.lock.
    def gems
      @gems ||= begin
        raise ServiceError, "#{gemfile} has no Gemfile.lock: run `bundle install` in #{dir}" unless File.file?(lockfile)

        parse_lock(File.read(lockfile))
      end
    end

    def version(gem) = gems[gem]

    # Raises one clear error when the app's bundle lacks the server's gem.
    def check!(gem)
      return if gem.nil? || gems.key?(gem)

      raise ServiceError, missing(gem)
    end

    def missing(gem)
      "the app's bundle (#{lockfile}) has no #{gem}: run `bundle add #{gem}` in #{dir}, or remove the server from the suite"
    end

    # What the bundle loads here (Installed): asked of Bundler once.
    def installed = @installed ||= Installed.new(self)

    # argv of an adapter, started through `bundle exec` under the app's
    # Gemfile: a gem executable run by path becomes its name, which the
    # app's bundle resolves to its own version.
    def wrap(argv)
      exe = argv[1] && argv[1][%r{/gems/[^/]+/(?:bin|exe)/([^/]+)\z}, 1]
      rest = exe && argv[0] == RbConfig.ruby ? [exe, *argv.drop(2)] : argv
      [RbConfig.ruby, bundle_exe, "exec", *rest]
    end

    def env
      INHERITED_ENV.to_h { |k| [k, nil] }.merge("BUNDLE_GEMFILE" => gemfile)
    end

    # The Ruby the app asks for (Gemfile.lock's RUBY VERSION), else the one that runs it.
    def ruby_version
      (File.file?(lockfile) && File.read(lockfile)[/^RUBY VERSION\n\s+ruby (\d[\d.]*)/, 1]) || RUBY_VERSION
    end

    def lock_sha256 = File.file?(lockfile) ? Digest::SHA256.file(lockfile).hexdigest : nil

    def to_h
      { "gemfile" => gemfile, "gemfile_lock_sha256" => lock_sha256, "ruby" => ruby_version,
        "ruby_running" => RUBY_VERSION, "gems" => gems }
    end

    private

    # The specs of a Gemfile.lock's GEM/PATH/GIT sections: "    name (version)".
    def parse_lock(text)
      text.scan(/^ {4}([A-Za-z0-9_.-]+) \(([^)]+)\)$/).to_h { |name, version| [name, version.sub(/-[a-z].*\z/, "")] }
    end

    # Bundler's executable, run by this Ruby. Outside a bundle, Debian's
    # bundler has no bin path in RubyGems (Gem.bin_path answers nil): the
    # `bundle` on PATH is the same Ruby script.
    def bundle_exe
      Gem.bin_path("bundler", "bundle") || Executable.find("bundle") || "bundle"
    rescue Gem::Exception
      Executable.find("bundle") || "bundle"
    end
  end
end
