# frozen_string_literal: true

require "test_helper"

# lib/rackbench.rb: the error classes every command reports as one line, and
# the autoload table every constant is found through.
class RackbenchTest < Minitest::Test
  def test_every_autoloaded_constant_names_a_file_that_defines_it
    Rackbench.constants.select { |c| Rackbench.autoload?(c) }.each do |name|
      path = Rackbench.autoload?(name)
      assert File.exist?(File.join(Rackbench::ROOT, "lib", "#{path}.rb")), "#{name}: #{path}.rb"
    end
    %i[Words Environment Capacity Servers Reports].each { |name| assert Rackbench.const_get(name), name }
  end

  def test_a_config_error_is_a_value_with_its_key_file_line_and_problem
    error = Rackbench::ConfigError.new("bench.yml:4: servers.0.threads too many", key: :"servers.0.threads", file: "bench.yml",
                                                                                  line: 4, problem: "too many")
    assert_equal ["servers.0.threads", "bench.yml", 4, "too many"], [error.key, error.file, error.line, error.problem]
    plain = Rackbench::ConfigError.new("--slo: cannot read it")
    assert_equal [nil, "--slo: cannot read it"], [plain.key, plain.problem], "without fields, the problem is the message"
  end

  def test_each_error_class_exits_with_its_own_status
    assert_equal 2, Rackbench::ConfigError.new("x").exit_status
    assert_equal 2, Rackbench::UnknownName.new("x").exit_status, "an unknown name is bad input"
    assert_equal 4, Rackbench::ServiceError.new("x", log_tail: "the log").exit_status
    assert_equal 4, Rackbench::StoreError.new("x").exit_status
  end
end
