# frozen_string_literal: true

require "shellwords"

module Rackbench
  module Hosts
    # The remote side of every long-lived process rackbench starts on a host:
    # a bash script passed on the ssh command line (nothing to install). It
    # waits for an agreed start time when given one, starts the command in a
    # new session (its own process group), prints that group's id, and ends
    # the group (TERM, then KILL after 2 s) as soon as its stdin closes. Its
    # stdin is the ssh channel, whose local end only rackbench holds (see
    # Supervisor#spawn keep_stdin), so rackbench ending by any path (SIGKILL
    # included) or the connection dropping leaves nothing on the host.
    #
    #   Wrapper.command(["puma", "-b", "tcp://10.0.0.2:9292"], env: {"RACK_ENV" => "production"},
    #                   chdir: "/srv/app", start_at_ns: nil)   # => one string for ssh's remote command
    module Wrapper
      PID_LINE = /^rackbench-remote: pid (\d+)$/

      SCRIPT = <<~BASH
        set -u
        at=$1 dir=$2; shift 2
        exec 3<&0
        if [ "$at" != - ]; then
          wait_ns=$(( at - $(date +%s%N) ))
          [ "$wait_ns" -gt 0 ] && sleep "$(( wait_ns / 1000000000 )).$(printf %09d $(( wait_ns % 1000000000 )))"
        fi
        cd "$dir" || exit 126
        setsid env -- "$@" </dev/null &
        pid=$!
        echo "rackbench-remote: pid $pid" >&2
        { while read -r _ <&3; do :; done
          kill -TERM -- -"$pid" 2>/dev/null; sleep 2; kill -KILL -- -"$pid" 2>/dev/null; } &
        watcher=$!
        trap 'kill -TERM -- -"$pid" 2>/dev/null' TERM HUP INT
        wait "$pid"; rc=$?
        kill -KILL -- -"$pid" 2>/dev/null
        kill "$watcher" 2>/dev/null
        exit "$rc"
      BASH

      module_function

      # start_at_ns: the host's CLOCK_REALTIME in ns at which to start, or nil for now.
      def command(argv, env: {}, chdir: "/", start_at_ns: nil)
        words = ["bash", "-c", SCRIPT, "rackbench-remote", start_at_ns ? start_at_ns.to_s : "-", chdir.to_s,
                 *env.map { |k, v| "#{k}=#{v}" }, *argv.map(&:to_s)]
        Shellwords.join(words)
      end

      # The remote process group's id, from the log the wrapper writes to, or nil.
      def remote_pid(log_text) = log_text[PID_LINE, 1]&.to_i
    end
  end
end
