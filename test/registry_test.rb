# frozen_string_literal: true

require "test_helper"

module Rackbench
  class RegistryTest < Minitest::Test
    def test_servers_are_found_by_name_from_their_files
      assert_includes Servers.names, "puma"
      assert_equal "puma", Servers.fetch("puma").server_name
      refute_includes Servers.names, "base"
    end

    def test_every_file_in_a_registry_folder_registers_its_name
      { Servers => "targets/servers", Engines => "engines", Reports => "reports",
        Doctor => "doctor/checks" }.each do |registry, dir|
        Dir[File.join(ROOT, "lib/rackbench", dir, "*.rb")].each do |file|
          name = File.basename(file, ".rb")
          next if name == "base"

          assert registry.fetch(name), "#{file} registers #{name}"
        end
      end
    end

    def test_an_unknown_name_lists_the_known_ones
      error = assert_raises(UnknownName) { Reports.fetch("pdf") }
      assert_match(/unknown report format "pdf"; known: .*markdown/, error.message)
    end
  end
end
