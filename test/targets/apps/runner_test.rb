# frozen_string_literal: true

require "test_helper"
require "json"

module Rackbench
  # `rackbench run` on a bundled app checks each cell's first answer against
  # the catalogue, and gives the app the services the suite names.
  class RunnerCatalogueTest < Minitest::Test
    # exit_status: 0 when every cell is ok, 3 when one failed.
    def run_suite(extra, exit_status: 0)
      path = write_suite({ "app" => "roda", "duration_s" => 0.5, "warmup_s" => 0, "concurrency" => [2] }.merge(extra))
      status, out, err = run_cli("run", "--results", tmpdir, path)
      assert_equal exit_status, status, "#{out}\n#{err}"
      _, json, = run_cli("report", "--results", tmpdir, "--format", "json")
      JSON.parse(json)["cells"].to_h { |c| [c["path"], c] }
    end

    def test_an_endpoint_whose_service_the_suite_does_not_name_fails_its_cell_with_the_reason
      cells = run_suite({ "endpoints" => ["/fibonacci/15", "/cache"] }, exit_status: 3)
      assert_equal "ok", cells["/fibonacci/15"]["status"]
      assert_operator cells["/fibonacci/15"]["requests_per_s"], :>, 0
      assert_equal "failed", cells["/cache"]["status"]
      assert_includes cells["/cache"]["reason"], "verify GET /cache: status 503, expected 200"
      assert_includes cells["/cache"]["reason"], "RACKBENCH_MEMCACHED is not set"
      assert_nothing_left
    end

    def test_the_services_a_suite_names_serve_its_cells
      cells = run_suite({ "endpoints" => ["/cache", "/network-io", "/db"],
                          "services" => [{ "service" => "memcached" }, { "service" => "upstream", "delay_ms" => 5 }] })
      cells.each_value do |cell|
        assert_equal "ok", cell["status"], "#{cell["path"]}: #{cell["reason"]}"
        assert_equal 0, cell["errors"], cell["path"]
      end
      assert_nothing_left
    end
  end
end
