# frozen_string_literal: true

# doc/architecture.md's picture of which stage of lib/rackbench names which,
# drawn from the code's constant references (Rackbench::Docs::Layering);
# test/docs/layering_test.rb fails when the page and the code differ, and
# when a stage names one on a higher rung.
namespace :docs do
  desc "doc/architecture.md's picture of which folder of lib/rackbench uses which (from the constant references)"
  task :layering do
    require_relative "docs/layering"
    path = "doc/architecture.md"
    picture = Rackbench::Docs::Layering.new("lib").mermaid
    File.write(path, Rackbench::Docs::Layering.write_into(File.read(path), picture))
    puts path
  end
end
