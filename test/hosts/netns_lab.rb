# frozen_string_literal: true

require "fileutils"
require "open3"
require "shellwords"
require "tmpdir"

module Rackbench
  # A small network of machines on this one, for the tests of Hosts: a
  # control namespace (where rackbench runs, holding the LAN's bridge) and
  # one namespace per host, each joined to the bridge by a veth pair, with an
  # address on 10.213.7.0/24 that exists only inside these namespaces, and
  # an sshd of its own (generated host key, a generated client key allowed).
  # Each host has a private mount namespace, as a machine of its own has its
  # own disk: the folders the lab is told to hide (the test's own, where the
  # suite and the results are) are an empty tmpfs there, and its run folder
  # (run_dir) is a tmpfs only that host sees. What rackbench needs on a host
  # then gets there over SSH, or not at all.
  #
  #   lab = NetnsLab.new(%w[app load1 load2], hide: [tmpdir]).start   # or NetnsLab.unavailable_reason
  #   lab.run_dir("app")   # the host's run folder (a suite's hosts: entry run_dir:)
  #   lab.address("app")  lab.ssh_config  lab.exec("ctl", argv)  lab.pids("load1")
  #   lab.clear                                        # between tests sharing it: their leftovers
  #   lab.stop                                         # every namespace and process, on every path
  class NetnsLab
    SUBNET = "10.213.7"
    SSHD = "/usr/sbin/sshd"

    # Why namespaces cannot be built here, or nil.
    def self.unavailable_reason
      return "network namespaces need root" unless Process.uid.zero?
      return "ip (iproute2) is not installed" unless system("command -v ip >/dev/null 2>&1")
      return "sshd (openssh-server) is not installed; `bin/setup hosts` installs it" unless File.executable?(SSHD)

      probe = "rbprobe#{Process.pid}"
      _, err, st = Open3.capture3("ip", "netns", "add", probe)
      return "cannot create a network namespace: #{err.strip}" unless st.success?

      system("ip", "netns", "del", probe)
      nil
    end

    # Namespaces a killed test run left (their owner process is gone): its
    # sshds and whatever else runs in them, then the namespaces.
    def self.remove_stale
      Open3.capture2("ip", "netns", "list").first.scan(/^(rbh(\d+)-\S+)/).each do |name, owner|
        next if File.exist?("/proc/#{owner}")

        Open3.capture2("ip", "netns", "pids", name).first.split.each { |pid| kill(pid.to_i) }
        system("ip", "netns", "del", name, err: File::NULL)
      end
    end

    def self.kill(pid)
      Process.kill("KILL", pid)
    rescue Errno::ESRCH
      nil
    end

    attr_reader :dir, :hosts

    def initialize(hosts, hide: [])
      @hosts = hosts
      @hide = hide.map { |d| File.expand_path(d) }
      @id = Process.pid % 100_000
      @dir = Dir.mktmpdir("rbnet")
      @sshd = {}
      @made = []
    end

    def ns(name) = "rbh#{Process.pid}-#{name}"
    def address(name) = "#{SUBNET}.#{hosts.index(name) + 2}"
    def ssh_config = File.join(dir, "ssh_config")
    def run_dir(name) = File.join(dir, "run-#{name}")

    # Runs a shell command line as root in a host's namespaces (network and
    # mount: what the host's sshd sees): [output, status].
    def host_shell(name, command_line)
      Open3.capture2e("nsenter", "--target", @sshd.fetch(name).to_s, "--net", "--mount", "sh", "-c", command_line)
    end

    def start
      self.class.remove_stale
      at_exit { stop } # Ctrl-C of the test run
      keys
      add_ns("ctl")
      ip("ctl", "link", "add", "br0", "type", "bridge")
      ip("ctl", "addr", "add", "#{SUBNET}.1/24", "dev", "br0")
      ip("ctl", "link", "set", "br0", "up")
      hosts.each_with_index { |h, i| add_host(h, i) }
      hosts.each { |h| start_sshd(h) }
      self
    rescue StandardError
      stop
      raise
    end

    # Runs the block in a thread that entered the control namespace (setns),
    # as rackbench would run on its own machine: an ssh master opened there
    # reaches the hosts, and later commands ride on it from any thread.
    def in_control_namespace(&block)
      Thread.new do
        File.open("/run/netns/#{ns("ctl")}") { |f| setns(f.fileno) }
        block.call
      end.value
    end

    # Pids of every process in a host's namespace but its sshd listener:
    # those whose network namespace is the one bound at /run/netns (what `ip
    # netns pids` reads, without a process started for each look).
    def pids(name)
      netns = "net:[#{File.stat("/run/netns/#{ns(name)}").ino}]"
      Dir.children("/proc").grep(/\A\d+\z/).map(&:to_i).select { |pid| pid != @sshd[name] && net_of(pid) == netns }
    end

    # Runs argv in the control namespace: [pid] of a process started in its own group.
    def spawn(argv, log_path:, env: {})
      Process.spawn(env, "ip", "netns", "exec", ns("ctl"), *argv, out: log_path, err: %i[child out], pgroup: true)
    end

    # Between tests sharing one lab: whatever a test left running in any
    # namespace (not the sshds) is killed and each host's run folder emptied,
    # so the next test starts on clean machines.
    def clear
      @made.each do |n|
        out, = Open3.capture2("ip", "netns", "pids", n)
        (out.split.map(&:to_i) - @sshd.values).each { |pid| self.class.kill(pid) }
      end
      hosts.each { |h| host_shell(h, "rm -rf #{Shellwords.escape(run_dir(h))}/* #{Shellwords.escape(run_dir(h))}/.[!.]*") }
    end

    def stop
      @sshd.each_value { |pid| kill_wait(pid) }
      @sshd.clear
      @made.reverse_each do |n|
        out, = Open3.capture2("ip", "netns", "pids", n)
        out.split.each { |pid| kill_wait(pid.to_i) } # only what this lab's tests started there
        system("ip", "netns", "del", n, err: File::NULL)
      end
      @made.clear
      FileUtils.rm_rf(dir) if dir
    end

    private

    def net_of(pid)
      File.readlink("/proc/#{pid}/ns/net")
    rescue SystemCallError
      nil
    end

    def setns(descriptor)
      require "fiddle"
      libc = Fiddle.dlopen(nil)
      call = Fiddle::Function.new(libc["setns"], [Fiddle::TYPE_INT, Fiddle::TYPE_INT], Fiddle::TYPE_INT)
      raise "setns failed" unless call.call(descriptor, 0x40000000).zero? # CLONE_NEWNET
    end

    def run!(*argv)
      out, st = Open3.capture2e(*argv)
      raise "#{argv.join(" ")} failed: #{out}" unless st.success?

      out
    end

    def ip(name, *args) = run!("ip", "-n", ns(name), *args)

    def add_ns(name)
      run!("ip", "netns", "add", ns(name))
      @made << ns(name)
      ip(name, "link", "set", "lo", "up")
    end

    def add_host(name, index)
      add_ns(name)
      outer = "rb#{@id}c#{index}"
      inner = "rb#{@id}h#{index}"
      run!("ip", "link", "add", outer, "type", "veth", "peer", "name", inner)
      run!("ip", "link", "set", outer, "netns", ns("ctl"))
      run!("ip", "link", "set", inner, "netns", ns(name))
      ip("ctl", "link", "set", outer, "master", "br0", "up")
      ip(name, "addr", "add", "#{address(name)}/24", "dev", inner)
      ip(name, "link", "set", inner, "up")
    end

    def keys
      run!("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", File.join(dir, "host_key"))
      run!("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", File.join(dir, "id"))
      FileUtils.cp(File.join(dir, "id.pub"), File.join(dir, "authorized_keys"))
      host_key = File.read(File.join(dir, "host_key.pub")).split[0, 2].join(" ")
      File.write(File.join(dir, "known_hosts"), hosts.map { |h| "#{address(h)} #{host_key}\n" }.join)
      File.write(ssh_config, <<~CONF)
        Host *
          User root
          IdentityFile #{File.join(dir, "id")}
          IdentitiesOnly yes
          UserKnownHostsFile #{File.join(dir, "known_hosts")}
          StrictHostKeyChecking yes
      CONF
    end

    def start_sshd(name)
      FileUtils.mkdir_p("/run/sshd")
      conf = File.join(dir, "sshd_#{name}.conf")
      File.write(conf, <<~CONF)
        ListenAddress #{address(name)}
        HostKey #{File.join(dir, "host_key")}
        AuthorizedKeysFile #{File.join(dir, "authorized_keys")}
        PidFile none
        StrictModes no
        PermitRootLogin prohibit-password
        PasswordAuthentication no
        KbdInteractiveAuthentication no
        UsePAM no
        MaxSessions 100
        MaxStartups 100
        Subsystem sftp internal-sftp
      CONF
      @sshd[name] = Process.spawn("ip", "netns", "exec", ns(name), "sh", "-c",
                                  "#{fresh_shell} #{private_folders(name)} exec #{SSHD} -D -e -f #{conf}",
                                  out: File.join(dir, "sshd_#{name}.log"), err: %i[child out], pgroup: true)
      wait_listening(name)
    end

    # A host as fresh as a new machine: bash run by sshd reads ~/.bashrc, and
    # this machine's may do slow things there (pyenv init). ip netns exec
    # gives sshd a mount namespace of its own, so an empty file bound over
    # ~/.bashrc there hides it from the lab's sessions only.
    def fresh_shell
      bashrc = File.join(Dir.home, ".bashrc")
      return "" unless File.exist?(bashrc)

      empty = File.join(dir, "empty_bashrc")
      File.write(empty, "")
      "mount --bind #{empty} #{bashrc} &&"
    end

    # ip netns exec gives the host's sshd a mount namespace of its own
    # (mounts made there stay there): an empty tmpfs over each hidden folder,
    # and one for its run folder.
    def private_folders(name)
      FileUtils.mkdir_p(run_dir(name))
      (@hide + [run_dir(name)]).map { |d| "mount -t tmpfs -o mode=0755 tmpfs #{Shellwords.escape(d)} &&" }.join(" ")
    end

    def wait_listening(name)
      deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + 10
      until Open3.capture2("ip", "netns", "exec", ns(name), "ss", "-Hltn", "src", address(name)).first.include?(":22")
        raise "sshd in #{name} did not listen: #{File.read(File.join(dir, "sshd_#{name}.log"))}" if
          Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline

        sleep 0.02
      end
    end

    def kill_wait(pid)
      Process.kill("KILL", pid)
      Process.wait(pid)
    rescue Errno::ESRCH, Errno::ECHILD
      nil
    end
  end
end
