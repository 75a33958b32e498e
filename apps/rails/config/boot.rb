# frozen_string_literal: true

# Bootsnap, as `rails new` sets it up: the compiled Ruby of each file a boot
# requires, and where each one is on the load path, cached in the app's
# tmp/cache, so a boot after the first one costs less CPU (seed runs start up to
# a dozen Rails processes at once on the server's CPU). It changes no answer.
# MRI only: JRuby's Rails 6.1 has no Bootsnap. A checkout whose tmp/cache cannot
# be written boots without it.
module RackbenchWorkloads
  def self.bootsnap_cache_dir
    dir = File.expand_path("../tmp/cache", __dir__)
    FileUtils.mkdir_p(dir)
    dir if File.writable?(dir)
  rescue SystemCallError
    nil
  end
end

if RUBY_ENGINE == "ruby"
  require "fileutils"
  cache_dir = RackbenchWorkloads.bootsnap_cache_dir
  if cache_dir
    require "bootsnap"
    Bootsnap.setup(cache_dir: cache_dir, development_mode: false, load_path_cache: true, compile_cache_iseq: true,
                   compile_cache_yaml: true)
  end
end
