# frozen_string_literal: true

module Rackbench
  # Debian's jemalloc (libjemalloc2, which bin/setup installs), preloaded
  # into a server by its `malloc: jemalloc` knob (Servers::Base), and the
  # check that it is really in use: mapped into each process of the tree.
  #
  #   Jemalloc.path               # => "/usr/lib/x86_64-linux-gnu/libjemalloc.so.2", or nil
  #   Jemalloc.unmapped([12, 13]) # => the pids that do not map it
  module Jemalloc
    LIBRARY = "libjemalloc.so.2"
    PACKAGE = "libjemalloc2"
    FOLDERS = %w[/usr/lib/x86_64-linux-gnu /usr/lib/aarch64-linux-gnu /usr/lib64 /usr/lib].freeze

    module_function

    def path = FOLDERS.map { |dir| File.join(dir, LIBRARY) }.find { |f| File.file?(f) }

    def missing_reason = path ? nil : "#{LIBRARY} is not installed (bin/setup installs Debian's #{PACKAGE})"

    # The pids (of those still running) whose memory does not map the library.
    def unmapped(pids)
      pids.select do |pid|
        files = Procfs.mapped_files(pid)
        files&.none? { |f| File.basename(f) == LIBRARY }
      end
    end
  end
end
