# frozen_string_literal: true

require "tmpdir"

module Rackbench
  # The extras of rackbench's checkout: what `bin/setup NAME` installs beyond
  # the core (`bin/setup --list` names them). What cannot run here says, in
  # its unavailable reason, the command that installs it (Extras.command);
  # Preflight reads the names back from those reasons, and `rackbench run
  # --install` runs the command (Extras.install).
  #
  #   Extras.names                 # => ["agoo", "falcon", ...]; [] outside a checkout (an installed gem)
  #   Extras.command("falcon")     # => "`bin/setup falcon`"; "`bin/setup`" for what the core installs
  #   Extras.named_in("gem falcon is not installed (`bin/setup falcon` installs it ...)")  # => "falcon"
  #   Extras.named_in("... (`bin/setup` installs it)")   # => "" (the core); nil when no command is named
  #   Extras.install(%w[falcon haproxy], out: $stderr)   # runs bin/setup falcon haproxy; true when it succeeded
  module Extras
    SETUP = File.join(ROOT, "bin", "setup")
    COMMAND = %r{`bin/setup(?: ([a-z][a-z0-9_]*))?`}
    LIST_TIMEOUT_S = 30
    POLL_S = 0.2

    module_function

    def available? = File.executable?(SETUP)

    def names
      @names ||= if available?
                   Supervisor.run([SETUP, "--list"], timeout_s: LIST_TIMEOUT_S).stdout.lines.filter_map { |l| l.split.first }
                 else
                   []
                 end
    end

    def command(name) = names.include?(name) ? "`bin/setup #{name}`" : "`bin/setup`"

    def named_in(reason)
      found = reason.to_s.match(COMMAND)
      found && found[1].to_s
    end

    # Runs bin/setup (setup) with names (none: the core), its output copied to out as it comes.
    def install(names, out:, setup: SETUP)
      Dir.mktmpdir("rackbench-setup") do |dir|
        log_path = File.join(dir, "setup.log")
        supervisor = Supervisor.new
        child = supervisor.spawn([setup, *names], name: "bin/setup", log_path: log_path, chdir: ROOT)
        copied = relay(child, log_path, out)
        supervisor.wait(child, nil)
        out.write(tail(log_path, copied))
        child.status.success?
      ensure
        supervisor&.stop_all
      end
    end

    # Copies what the child writes into log_path to out while it runs; how many bytes it copied.
    def relay(child, log_path, out)
      copied = 0
      while child.alive?
        sleep POLL_S
        text = tail(log_path, copied)
        out.write(text)
        copied += text.bytesize
      end
      copied
    end

    # What path holds past its first offset bytes.
    def tail(path, offset) = File.binread(path, nil, offset).to_s.force_encoding(Encoding::UTF_8)
  end
end
