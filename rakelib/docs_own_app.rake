# frozen_string_literal: true

# doc/own-app.md's walkthroughs, as the commands print them
# (Rackbench::Docs::Transcript): `rake docs:runs:own_app` copies the app of
# each walkthrough into tmp/docs-runs/own-app, runs the page's commands there
# and keeps what each printed; `rake docs:own_app` writes the page's blocks.
#
#   warehouse   test/fixtures/pooled: init without, then with, its variables
#   shop        a new Rails 7.2 app with one scaffold: init, then a smoke run with a POST in a mix
DOCS_OWN_APP = ENV.fetch("OWN_APP_RESULTS", "tmp/docs-runs/own-app")
DOCS_OWN_APP_BIN = File.join(DOCS_ROOT, "bin", "rackbench")
DOCS_OWN_APP_RAILS = "7.2.4"
DOCS_OWN_APP_WAREHOUSE_INIT = %w[init --force --env WEB_CONCURRENCY=0 --env MAX_THREADS=5 --env THREADS=5
                                 --path /health --path /items --path /items/1].freeze
DOCS_OWN_APP_RAILS_NEW = ["rails", "_#{DOCS_OWN_APP_RAILS}_", "new", "shop", "--minimal", "--skip-asset-pipeline",
                          "--skip-bundle", "--skip-git", "--skip-test", "--skip-system-test", "--skip-docker",
                          "--skip-rubocop", "--skip-brakeman", "--skip-ci", "--skip-kamal"].freeze
# [block, folder under DOCS_OWN_APP it ran in]
DOCS_OWN_APP_BLOCKS = [%w[warehouse-init warehouse], %w[warehouse-suite warehouse], %w[warehouse-init-env warehouse],
                       %w[warehouse-suite-env warehouse], %w[shop-init shop], %w[shop-run shop]].freeze

namespace :docs do
  namespace :runs do
    desc "doc/own-app.md's walkthroughs run in #{DOCS_OWN_APP}, what each command printed kept there"
    task :own_app do
      rm_rf DOCS_OWN_APP
      mkdir_p DOCS_OWN_APP
      DocsOwnApp.warehouse(File.join(DOCS_OWN_APP, "warehouse"))
      DocsOwnApp.shop(File.join(DOCS_OWN_APP, "shop"))
    end
  end

  desc "doc/own-app.md's outputs: what `rake docs:runs:own_app` kept in #{DOCS_OWN_APP}"
  task :own_app do
    DocsOwnApp.write("doc/own-app.md")
  end
end

# The walkthroughs' steps; each command's output is kept in DOCS_OWN_APP/BLOCK.
module DocsOwnApp
  extend Rake::FileUtilsExt

  module_function

  def warehouse(app)
    cp_r File.join(DOCS_ROOT, "test", "fixtures", "pooled"), app
    setup!(%w[bundle install --local], app)
    keep("warehouse-init", [DOCS_OWN_APP_BIN, "init"], "rackbench init", app)
    keep("warehouse-suite", %w[cat rackbench.yml], "cat rackbench.yml", app)
    keep("warehouse-init-env", [DOCS_OWN_APP_BIN, *DOCS_OWN_APP_WAREHOUSE_INIT],
         "rackbench #{DOCS_OWN_APP_WAREHOUSE_INIT.join(" ")}", app)
    keep("warehouse-suite-env", %w[cat rackbench.yml], "cat rackbench.yml", app)
  end

  # The Rails walkthrough: the app as the page says it was made, init, then the suite with a POST in a mix.
  def shop(app)
    mkdir_p File.dirname(app)
    setup!(DOCS_OWN_APP_RAILS_NEW, File.dirname(app))
    gemfile = File.join(app, "Gemfile")
    File.write(gemfile, "#{File.read(gemfile).lines.grep_v(/gem "(debug|tzinfo-data)"/).join}gem \"unicorn\"\n")
    setup!(%w[bundle install --local], app)
    setup!(%w[bin/rails generate scaffold item name:string], app)
    controller = File.join(app, "app", "controllers", "items_controller.rb")
    File.write(controller, File.read(controller).sub("class ItemsController < ApplicationController\n",
                                                     "\\0  skip_forgery_protection\n"))
    keep("shop-init", [DOCS_OWN_APP_BIN, "init"], "rackbench init", app)
    add_post_and_mix(File.join(app, "rackbench.yml"))
    keep("shop-run", [DOCS_OWN_APP_BIN, "run", "rackbench.yml", "--smoke"], "rackbench run rackbench.yml --smoke", app)
  end

  # What the page adds to the suite init wrote: a POST of the scaffold's form, and a mix.
  def add_post_and_mix(path)
    require "yaml"
    suite = YAML.safe_load_file(path)
    suite["endpoints"] << { "name" => "create", "path" => "/items", "method" => "POST", "form" => { "item[name]" => "widget" },
                            "expect_status" => 302, "headers" => { "X-Forwarded-Proto" => "https" } }
    suite["mix"] = [{ "endpoint" => "/items", "weight" => 80 }, { "endpoint" => "/up", "weight" => 15 },
                    { "endpoint" => "create", "weight" => 5 }]
    File.write(path, suite.to_yaml)
  end

  def setup!(argv, dir)
    require "open3"
    out, status = Bundler.with_unbundled_env { Open3.capture2e(*argv, chdir: dir) }
    raise "#{argv.join(" ")} in #{dir} failed:\n#{out}" unless status.success?
  end

  def keep(block, argv, shown, app)
    DocsTranscripts.record(File.join(DOCS_OWN_APP, block), argv, shown: shown, chdir: app)
  end

  def write(page)
    DocsHelper.load_rackbench
    require_relative "docs/transcript"
    loads = DOCS_OWN_APP_BLOCKS.map do |block, _app|
      kept = Rackbench::Docs::Transcript.load(File.join(DOCS_OWN_APP, block))
      DocsHelper.replace_block(page, "own-app-#{block}", kept.markdown)
      kept.loadavg_text
    end
    DocsHelper.replace_block(page, "own-app-machine", <<~MD)
      The outputs below are what `bundle exec rake docs:runs:own_app` printed on a
      #{Rackbench::Pinning.available_cpus.size}-core machine shared with other work (load averages over 1, 5 and 15
      minutes as the warehouse's last command ended: #{loads[3]}; as the Rails app's run ended: #{loads.last});
      `rake docs:own_app` writes them here. Paths are relative to the app's folder.
    MD
  end
end
