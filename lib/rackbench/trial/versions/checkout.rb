# frozen_string_literal: true

require "fileutils"

module Rackbench
  class Versions
    # One git revision of the app's repository checked out beside the
    # repository's own work tree (`git worktree add --detach`), so the
    # repository's checkout, index and branches stay as they are; removed
    # (`git worktree remove --force`, then pruned) when `rackbench ab` ends.
    #
    #   top = Checkout.repository_of("shop/config.ru", letter: "A", name: "v1")  # the repository's top folder
    #   sha = Checkout.resolve(top, "v1", letter: "A")                           # ConfigError unless a commit
    #   checkout = Checkout.new(top, sha, "rackbench-results/ab/A").add
    #   checkout.dir    # where the revision's files are
    #   checkout.remove
    class Checkout
      TIMEOUT_S = 300

      attr_reader :dir

      # The top folder of the git repository that holds app; ConfigError naming the version when none does.
      def self.repository_of(app, letter:, name:)
        folder = File.dirname(app)
        ran = File.directory?(folder) && git(folder, "rev-parse", "--show-toplevel")
        return ran.stdout.strip if ran&.status&.success?

        raise ConfigError, "#{letter}: #{name} is not a folder, a Gemfile or a git revision: the app's folder " \
                           "#{folder} is not in a git repository"
      end

      # The commit a revision names (a branch, tag, sha, HEAD~1, ...).
      def self.resolve(repository, name, letter:)
        ran = git(repository, "rev-parse", "--verify", "--quiet", "#{name}^{commit}")
        return ran.stdout.strip if ran.status.success?

        raise ConfigError, "#{letter}: #{name} is not a folder, a Gemfile or a revision of the git repository #{repository}"
      end

      def self.git(dir, *args)
        Supervisor.run(["git", "-C", dir, *args], timeout_s: TIMEOUT_S)
      end

      def initialize(repository, revision, dir)
        @repository = repository
        @revision = revision
        @dir = File.expand_path(dir)
      end

      def add
        FileUtils.mkdir_p(File.dirname(dir))
        ran = self.class.git(@repository, "worktree", "add", "--detach", dir, @revision)
        raise ServiceError, "git worktree add #{dir} #{@revision[0, 12]} failed: #{ran.stderr.strip}" unless ran.status.success?

        @added = true
        self
      end

      def remove
        return unless @added

        self.class.git(@repository, "worktree", "remove", "--force", dir)
        FileUtils.rm_rf(dir)
        self.class.git(@repository, "worktree", "prune")
        @added = false
      end
    end
  end
end
