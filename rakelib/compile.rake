# frozen_string_literal: true

# The native load engine (ext/rackbench_load): `rake compile` builds
# ext/rackbench_load/rackbench-load with the system C compiler and make.
NATIVE_EXT_DIR = File.expand_path("../ext/rackbench_load", __dir__)

desc "Build the native load engine (ext/rackbench_load/rackbench-load)"
task :compile do
  sh "make", "-C", NATIVE_EXT_DIR, "rackbench-load"
end

namespace :compile do
  desc "Build and run the native engine's C unit tests"
  task :test do
    sh "make", "-C", NATIVE_EXT_DIR, "test"
  end

  desc "Fuzz the native engine's response parser (FUZZ_SECONDS, default 20)"
  task :fuzz do
    sh "make", "-C", NATIVE_EXT_DIR, "fuzz-run", "FUZZ_SECONDS=#{ENV.fetch("FUZZ_SECONDS", "20")}"
  end

  desc "Remove the native engine's build products"
  task :clean do
    sh "make", "-C", NATIVE_EXT_DIR, "clean"
  end
end
