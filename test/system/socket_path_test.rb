# frozen_string_literal: true

require "test_helper"
require "socket"

module Rackbench
  class SocketPathTest < Minitest::Test
    def test_a_socket_in_a_short_folder_stays_there
      assert_equal File.join(tmpdir, "puma.sock"), SocketPath.for(tmpdir, "puma.sock")
    end

    def test_a_socket_in_a_folder_too_deep_for_sun_path_moves_to_a_short_one_that_binds
      deep = File.join(tmpdir, "runs", "1", "01-thin-4-instances-unix-via-nginx-x3-round-robin", "instance-1")
      FileUtils.mkdir_p(deep)
      path = SocketPath.for(deep, "thin.sock")
      assert_operator path.bytesize, :<=, SocketPath::MAX_BYTES
      refute_equal SocketPath.for(File.join(deep, "other"), "thin.sock"), path, "two folders get two sockets"
      UNIXServer.new(path).close
    ensure
      File.unlink(path) if path && File.exist?(path)
    end
  end
end
