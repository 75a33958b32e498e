# frozen_string_literal: true

require "test_helper"

module Rackbench
  # Noise names the busiest processes that are not the server, its
  # dependencies or rackbench's own: a spinner outside rackbench's tree is
  # named, one given as known is not.
  class NoiseTest < Minitest::Test
    SPIN = "t = Time.now; nil while Time.now - t < 30"

    def teardown
      [@foreign, @known].compact.each do |pid|
        Process.kill("KILL", pid)
      rescue SystemCallError
        nil
      end
      @supervisor&.stop_all
      super
    end

    def test_a_busy_process_outside_rackbenchs_tree_is_named_and_a_known_one_is_not
      @supervisor = Supervisor.new
      pid_file = File.join(tmpdir, "foreign.pid")
      # sh leaves the spinner behind: an orphan, no longer below this process.
      @supervisor.capture(["sh", "-c", "#{RbConfig.ruby} -e '#{SPIN}' & echo $! > #{pid_file}"],
                          name: "fork", log_path: File.join(tmpdir, "sh.log"), timeout_s: 10)
      @foreign = File.read(pid_file).to_i
      @known = @supervisor.spawn([RbConfig.ruby, "-e", SPIN], name: "known", log_path: nil).pid
      noise = Noise.new.start
      wait_until(timeout_s: 20, message: "the spinner to use CPU") { (Procfs.process_stat(@foreign)&.cpu_s || 0) > 0.3 }
      # Every busy process, not the top 3: on a loaded machine others may use more CPU than the spinner.
      busiest = noise.stop(known_cpu_s: 0, known_pids: [@known], busiest: 1000)["other_busiest"].map { |p| p["pid"] }
      assert_includes busiest, @foreign
      refute_includes busiest, @known
    end
  end
end
