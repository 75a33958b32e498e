# frozen_string_literal: true

require "digest"
require "fileutils"
require "tmpdir"

module Rackbench
  # Where a Unix socket goes. sun_path holds 108 bytes, and a run's folder can
  # be deeper than that allows; such a socket goes to a short folder under the
  # system tmpdir instead, named after a digest of the folder it belongs to.
  #
  #   SocketPath.for(dir, "puma.sock")  # => "DIR/puma.sock", or "/tmp/rackbench-0/3f2a9c1b7d-puma.sock"
  module SocketPath
    MAX_BYTES = 100

    module_function

    def for(dir, file_name)
      path = File.join(dir, file_name)
      return path if path.bytesize <= MAX_BYTES

      short_dir = File.join(Dir.tmpdir, "rackbench-#{Process.uid}")
      FileUtils.mkdir_p(short_dir, mode: 0o700)
      File.join(short_dir, "#{Digest::SHA1.hexdigest(File.expand_path(dir))[0, 10]}-#{file_name}")
    end
  end
end
