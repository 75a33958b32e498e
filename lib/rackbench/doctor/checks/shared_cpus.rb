# frozen_string_literal: true

module Rackbench
  module Doctor
    # The load generator and the server on the same CPUs: each takes CPU
    # from the other, so the figures mix both.
    class SharedCpus < Check
      NAME = "shared_cpus"

      def findings
        return [] if suite&.[]("load_hosts") # the load comes from other machines

        if suite && suite["pin"] == false
          [warning("pinning is off: the load generator and the server share the CPUs",
                   where: subject.where_key(["pin"]), fix: "pin: true (the default)")]
        elsif machine.cpus.size < 2
          [warning("this machine offers rackbench #{machine.cpus.size} CPU: the load generator and the server share it",
                   where: "this machine (Cpus_allowed_list)", fix: "2 or more CPUs, or load_hosts: on another machine")]
        elsif !machine.taskset
          [warning("taskset is not installed, so rackbench cannot pin", where: "this machine (PATH)",
                                                                        fix: "install util-linux (taskset)")]
        else
          []
        end
      end
    end

    register("shared_cpus", SharedCpus)
  end
end
