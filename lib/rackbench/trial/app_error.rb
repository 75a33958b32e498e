# frozen_string_literal: true

module Rackbench
  # The line of a server's log that says why it stopped: the exception Ruby
  # printed as the process died (or a logger's "ERROR -- : ... (Class)"),
  # placed at the first frame of the app's own code. Read by ExitReason.
  #
  #   AppError.find(File.read("server.log"), app_dir: "/srv/shop")
  #   # => 'db.rb:10: key not found: "THREADS" (KeyError)'
  #   AppError.find("* Listening on http://127.0.0.1:9292\n", app_dir: nil)   # => nil
  module AppError
    # "config/puma.rb:1:in `fetch': key not found: "X" (KeyError)", as Ruby prints an uncaught exception.
    RAISED = /\A(?<loc>[^\s:][^:]*:\d+):in [`'][^']*': (?<message>.*) \((?<class>[A-Z]\w*(?:::[A-Z]\w*)*)\)\z/
    # "E, [2026-11-23T18:01:05 #1] ERROR -- : key not found: "X" (KeyError)", as unicorn and Logger print one.
    LOGGED = /\A(?:[A-Z], \[[^\]]*\]\s+)?(?:ERROR|FATAL) -- [^:]*: (?<message>.*) \((?<class>[A-Z]\w*(?:::[A-Z]\w*)*)\)\z/
    # A backtrace frame: "\tfrom db.rb:10:in `<top (required)>'" or a logger's "db.rb:10:in `fetch'".
    FRAME = /\A\s*(?:from )?(?<loc>[^\s:][^:]*:\d+):in /
    # A line that reads like a failure, when no exception is printed.
    FAILURE = /error|fatal|exception|cannot|can't|denied|refused|failed|not found|in use|abort/i
    GEM_PATH = %r{.*/gems/(?<rest>[^/]+/.+)\z}
    FRAMES_READ = 200
    MAX_CHARS = 300

    module_function

    # The app's error in one line, or nil when the log says nothing that reads like one.
    def find(text, app_dir: nil)
      lines = text.to_s.scrub.lines.map(&:chomp)
      line = raised(lines, app_dir) || logged(lines, app_dir) || lines.reverse.find { |l| l.match?(FAILURE) }&.strip
      line && truncate(line)
    end

    def raised(lines, app_dir)
      index = lines.rindex { |l| l.match?(RAISED) } or return nil
      m = RAISED.match(lines[index])
      "#{place([m[:loc], *frames(lines, index + 1)], app_dir)}: #{m[:message]} (#{m[:class]})"
    end

    def logged(lines, app_dir)
      index = lines.rindex { |l| l.match?(LOGGED) } or return nil
      m = LOGGED.match(lines[index])
      locs = frames(lines, index + 1)
      where = locs.empty? ? "" : "#{place(locs, app_dir)}: "
      "#{where}#{m[:message]} (#{m[:class]})"
    end

    # Locations of the frames that follow the exception line (skipping the
    # lines of a multi-line message or error_highlight's snippet).
    def frames(lines, from)
      lines[from, FRAMES_READ].to_a.filter_map { |l| FRAME.match(l)&.[](:loc) }
    end

    # The first frame in the app's own files (not its vendored gems), shown
    # relative to the app's folder; else the first frame, shortened to the gem.
    def place(locs, app_dir)
      own = app_dir && locs.find { |loc| own?(loc, app_dir) }
      return File.expand_path(own, app_dir).delete_prefix("#{File.expand_path(app_dir)}/") if own

      loc = locs.first
      loc[GEM_PATH, :rest] || loc
    end

    def own?(loc, app_dir)
      path = File.expand_path(loc, app_dir)
      dir = File.expand_path(app_dir)
      path.start_with?("#{dir}/") && !path.match?(%r{/(?:vendor|gems)/})
    end

    def truncate(line) = line.length > MAX_CHARS ? "#{line[0, MAX_CHARS - 3]}..." : line
  end
end
