# frozen_string_literal: true

module Rackbench
  # Why a started process did not serve, in one line a user can act on: how
  # it ended, the app's own error from its log (AppError), then where the
  # log is, relative to the results folder. Built by Readiness, the Window
  # and the services wherever a process exits or never gets ready.
  #
  #   reason = ExitReason.new(child, app_dir: "/srv/shop", log_root: "/srv/rackbench-results")
  #   reason.exited("before it was ready")
  #   # => 'puma exited before it was ready (exit 1): config/puma.rb:1: key not found: "WEB_CONCURRENCY" (KeyError);
  #   #     log: runs/3/01-puma/d1/server.log'
  #   reason.not_ready(30, "Connection refused")
  #   # => "puma not ready after 30s (last: Connection refused): ...; log: runs/3/01-puma/d1/server.log"
  class ExitReason
    # app_dir: where the app's own files are (frames there are preferred);
    # log_root: the results folder the log's path is shown relative to;
    # name: what to call the process (default: the child's name).
    def initialize(child, app_dir: nil, log_root: nil, name: child.name)
      @child = child
      @name = name
      @app_dir = app_dir
      @log_root = log_root
    end

    def exited(moment)
      "#{@name} exited #{moment} (#{status_text(@child.status)})#{what_the_log_says}#{where}"
    end

    # A command that had to succeed (a setup step) and did not.
    def failed
      "#{@name} failed (#{status_text(@child.status)})#{what_the_log_says(quiet: ": #{last_line}")}#{where}"
    end

    def not_ready(timeout_s, last_error)
      "#{@name} not ready after #{timeout_s}s (last: #{last_error || "no answer"})#{what_the_log_says(quiet: "")}#{where}"
    end

    # "exit 1", "killed by SIGKILL": what the process's end means, not a Process::Status inspect.
    def status_text(status)
      return "exit status unknown" unless status.is_a?(Process::Status)
      return "exit #{status.exitstatus}" if status.exited?
      return "killed by SIG#{Signal.signame(status.termsig)}" if status.signaled?

      status.to_s
    end

    private

    def log_text
      @log_text ||= @child.log_path && File.file?(@child.log_path) ? File.read(@child.log_path) : ""
    end

    def what_the_log_says(quiet: nil)
      error = AppError.find(log_text, app_dir: @app_dir)
      return ": #{error}" if error
      return ": it logged nothing" if log_text.strip.empty?

      quiet || ": no error in its log, which ends: #{last_line.inspect}"
    end

    def last_line = AppError.truncate(log_text.lines.reject { |l| l.strip.empty? }.last.to_s.strip)

    def where
      path = @child.log_path or return ""
      root = @log_root && "#{File.expand_path(@log_root)}/"
      "; log: #{root && path.start_with?(root) ? path.delete_prefix(root) : path}"
    end
  end
end
