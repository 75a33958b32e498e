# frozen_string_literal: true

# `gem install rackbench` runs this, then `make` and `make install` here: the
# Makefile beside it (not one mkmf writes) builds rackbench-load in this
# folder, where Rackbench::Engines::Native looks for it. Only checks that a
# C compiler and make are there, with one clear error when they are not.
require "mkmf"

unless find_executable(RbConfig::CONFIG["CC"].split.first) || find_executable("cc")
  abort "rackbench: building the load engine needs a C compiler (Debian: apt-get install build-essential)"
end
abort "rackbench: building the load engine needs make (Debian: apt-get install build-essential)" unless find_executable("make")
abort "rackbench: ext/rackbench_load/Makefile is missing from the gem" unless File.file?(File.join(__dir__, "Makefile"))
