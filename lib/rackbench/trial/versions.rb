# frozen_string_literal: true

require "fileutils"
require_relative "versions/checkout"

module Rackbench
  # Two versions of the user's app as one suite, for `rackbench ab`: every
  # server entry of the suite twice, once per version (A the baseline, B the
  # candidate). Being server configs of one suite, the Runner starts the two
  # side by side at each start and measures them in interleaved rounds, so
  # drift of the machine falls on both and the comparison pairs them by start.
  #
  #   versions = Versions.parse("old", "new")                          # two folders, each with a config.ru
  #   versions = Versions.parse("v1.4", "HEAD", app: "shop/config.ru")  # two git revisions of the app's repository
  #   versions = Versions.parse("Gemfile", "Gemfile.next", app: "shop/config.ru")  # one app, two bundles
  #   versions.prepare(dir)     # revisions: each checked out under dir (git worktree)
  #   versions.suite_data(data) # the suite's data, servers doubled: entry i as A (variant 2i+1) and B (2i+2)
  #   a, b = versions.split(store.measurements(run_id))      # then Regression.new(a, b, key: versions.key, paired: true)
  #   versions.cleanup          # the checkouts removed
  #
  # A and B must be of one kind; a bad name is a ConfigError that starts nothing.
  class Versions
    LETTERS = %w[A B].freeze

    # app: the config.ru served; gemfile: the bundle it runs under when it is
    # not the app's own (the Gemfile kind); revision: the commit checked out.
    Version = Struct.new(:letter, :name, :app, :gemfile, :revision, keyword_init: true) do
      def describe = [name, revision && "(#{revision[0, 12]})"].compact.join(" ")
    end

    attr_reader :kind, :versions

    # a, b: two folders (or config.ru files), two Gemfiles (or their
    # .lock files) of the app, or two revisions of the git repository that
    # holds the app. app: the app's config.ru, for the last two kinds.
    def self.parse(a, b, app: nil)
      kinds = [a, b].map { |v| kind_of(v) }
      unless kinds.uniq.size == 1
        raise ConfigError, "A (#{a}) and B (#{b}) must be of one kind: two folders, two Gemfiles or two git revisions; " \
                           "got a #{kinds[0]} and a #{kinds[1]}"
      end
      new(kinds.first, [a, b], app: app)
    end

    def self.kind_of(name)
      return "folder" if File.directory?(name) || (File.basename(name) == "config.ru" && File.file?(name))
      return "Gemfile" if File.file?(name) && File.basename(name).start_with?("Gemfile")

      "revision"
    end

    def initialize(kind, names, app: nil)
      @kind = kind
      @app = app && File.expand_path(app)
      @versions = names.each_with_index.map { |name, i| send("#{kind.downcase}_version", LETTERS[i], name) }
      @checkouts = []
    end

    def a = versions.first
    def b = versions.last

    # Revisions: checks each out into dir/A and dir/B; the other kinds are served where they are.
    def prepare(dir)
      return self unless kind == "revision"

      versions.each do |v|
        checkout = Checkout.new(@repository, v.revision, File.join(dir, v.letter)).add
        @checkouts << checkout
        v.app = File.join(checkout.dir, @app_in_repository)
        raise ConfigError, "#{v.letter}: revision #{v.name} has no #{@app_in_repository}" unless File.file?(v.app)
      end
      self
    end

    def cleanup
      @checkouts.reverse_each(&:remove)
      @checkouts.clear
    end

    # The suite's data (as read from its file) with each server entry once
    # per version: A's right before B's, labelled "A NAME: CONFIG"; the
    # suite's setup: commands run for each version, in its own folder.
    def suite_data(data)
      setup = Array(data["setup"])
      servers = data.fetch("servers").flat_map { |entry| versions.map { |v| entry_for(v, entry, setup) } }
      data.except("setup").merge(
        "name" => ["ab", data["name"]].compact.join(" "), "app" => a.app, "servers" => servers,
        "description" => "rackbench ab: #{versions.map { |v| "#{v.letter} = #{v.describe}" }.join(", ")}"
      )
    end

    # The measurements of A and of B, in the order of the suite's entries.
    def split(measurements) = measurements.partition { |m| m.variant.to_i.odd? }

    # What matches a cell of A with one of B (Regression's key:): the
    # suite's server entry they both come from, endpoint, concurrency, rate.
    def key = ->(m) { [(m.variant.to_i - 1) / 2, m.endpoint, m.concurrency, m.offered_rate_per_s] }

    private

    def entry_for(version, entry, setup)
      env = entry.fetch("env", {}).merge(version.gemfile ? { "BUNDLE_GEMFILE" => version.gemfile } : {})
      own = entry.merge("app" => version.app, "label" => label(version, entry))
      own["env"] = env unless env.empty?
      own["setup"] = setup + Array(entry["setup"]) unless setup.empty? && !entry.key?("setup")
      own
    end

    def label(version, entry)
      config = entry["label"] || Servers.fetch(entry["server"]).new(entry).label
      names = versions.map(&:name)
      names.uniq.size == names.size ? "#{version.letter} #{version.name}: #{config}" : "#{version.letter}: #{config}"
    rescue UnknownName, ConfigError
      "#{version.letter} #{version.name}: #{entry["server"]}"
    end

    def folder_version(letter, name)
      app = File.directory?(name) ? File.join(name, "config.ru") : name
      raise ConfigError, "#{letter}: the folder #{name} has no config.ru" unless File.file?(app)

      Version.new(letter: letter, name: File.basename(File.expand_path(File.dirname(app))), app: File.expand_path(app))
    end

    def gemfile_version(letter, name)
      gemfile = File.expand_path(name.delete_suffix(".lock"))
      raise ConfigError, "#{letter}: #{name} is a Gemfile.lock with no Gemfile beside it (#{gemfile})" unless File.file?(gemfile)
      unless File.file?("#{gemfile}.lock")
        raise ConfigError, "#{letter}: #{name} has no #{File.basename(gemfile)}.lock beside it: run " \
                           "`BUNDLE_GEMFILE=#{File.basename(gemfile)} bundle install` in #{File.dirname(gemfile)}"
      end

      app = @app || File.join(File.dirname(gemfile), "config.ru")
      raise ConfigError, "#{letter}: no app to serve with #{name}: #{app} is not a file (--app names it)" unless File.file?(app)

      Version.new(letter: letter, name: File.basename(gemfile), app: app, gemfile: gemfile)
    end

    def revision_version(letter, name)
      app = @app || File.expand_path("config.ru")
      @repository ||= Checkout.repository_of(app, letter: letter, name: name)
      @app_in_repository ||= (File.exist?(app) ? File.realpath(app) : app).delete_prefix("#{@repository}/")
      Version.new(letter: letter, name: name, revision: Checkout.resolve(@repository, name, letter: letter))
    end
  end
end
