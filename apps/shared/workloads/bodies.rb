# frozen_string_literal: true

require "fileutils"
require "tmpdir"

module Workloads
  # The bodies of the size endpoints (/bytes, /compressible, /file, /upload):
  # n bytes that gzip cannot shrink (a seeded pseudo-random sequence), n
  # bytes of HTML that it shrinks about tenfold, the same random bytes as a
  # file on disk (for X-Sendfile / X-Accel-Redirect), and an upload's bytes
  # read and counted. Ruby 2.6 syntax: JRuby 9.3 loads it too.
  #
  #   Bodies.random(1024)              # => 1024 bytes, the same in every process and app
  #   Bodies.compressible(65_536)      # => 65536 bytes of table rows
  #   Bodies.file(1_048_576)           # => the path of a file holding Bodies.random(1_048_576)
  #   Bodies.received(env["rack.input"])  # => "received 65536 bytes"
  module Bodies
    SEED = 1137 # falcon #137, the slowdown seen only above about 16 KB
    MAX_BYTES = 16 * 1_048_576
    FILES_ENV = "RACKBENCH_FILES_DIR"
    # X-Sendfile or X-Accel-Redirect: the header a file answer names its file in, for the proxy in front to send it.
    SENDFILE_ENV = "RACKBENCH_SENDFILE"
    CHUNK_BYTES = 65_536
    KEPT = 6 # sizes kept in memory per process

    class TooLarge < StandardError; end

    @random = {}
    @compressible = {}
    @lock = Mutex.new

    module_function

    def random(bytes)
      kept(@random, bytes) { Random.new(SEED).bytes(bytes) }
    end

    def compressible(bytes)
      kept(@compressible, bytes) { compressible_text(bytes) }
    end

    # Rows of a catalogue table, numbered: repetitive as HTML is, each row its own.
    def compressible_text(bytes)
      text = +"<!DOCTYPE html>\n<table>\n"
      row = 0
      while text.bytesize < bytes
        row += 1
        category = CATEGORIES[row % CATEGORIES.size]
        text << %(<tr class="#{row.odd? ? "odd" : "even"}"><td>Item #{row}</td><td>#{category}</td></tr>\n)
      end
      text.byteslice(0, bytes)
    end

    # The file of random(bytes) in the files folder, written once (under a
    # temporary name, then renamed: concurrent first requests never see half a file).
    def file(bytes)
      path = File.join(files_dir, "random-#{check(bytes)}.bin")
      return path if File.size?(path) == bytes

      FileUtils.mkdir_p(files_dir)
      partial = "#{path}.#{Process.pid}.#{Thread.current.object_id}"
      File.binwrite(partial, random(bytes))
      File.rename(partial, path)
      path
    end

    def files_dir
      ENV.fetch(FILES_ENV) { File.join(Dir.tmpdir, "rackbench-files") }
    end

    # Reads the request body to its end and says how many bytes came.
    def received(input)
      input.rewind if input.respond_to?(:rewind) # a framework that looked for form fields read it
      count = 0
      buffer = +""
      count += buffer.bytesize while input.read(CHUNK_BYTES, buffer)
      "received #{count} bytes"
    end

    def check(bytes)
      raise TooLarge, "#{bytes} bytes is above the #{MAX_BYTES} the size endpoints serve" if bytes > MAX_BYTES

      bytes
    end

    def kept(cache, bytes)
      check(bytes)
      @lock.synchronize do
        cache.clear if cache.size >= KEPT && !cache.key?(bytes)
        cache[bytes] ||= yield
      end
    end
  end
end
