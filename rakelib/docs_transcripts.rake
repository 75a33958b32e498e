# frozen_string_literal: true

# Pages that show a command's terminal output (Rackbench::Docs::Transcript):
# `rake docs:runs:NAME` runs the command and keeps what it printed (slow: it
# measures); `rake docs:NAME` writes the page's block from what was kept.
# `rake docs:runs` and `rake docs` (docs.rake) include both.
#
#   doc/calibrate.md   rackbench calibrate at its defaults
#   doc/ab.md          rackbench ab on two versions of a sleeping Rack app
DOCS_CALIBRATE = ENV.fetch("CALIBRATE_RESULTS", "tmp/docs-runs/calibrate")
DOCS_AB = ENV.fetch("AB_RESULTS", "tmp/docs-runs/ab")
# doc/ab.md's example: a Rack app whose endpoint sleeps 150 to 250 ms (old) and a fifth longer (new).
DOCS_AB_APPS = { "old" => "0.15..0.25", "new" => "0.18..0.30" }.freeze
DOCS_AB_SUITE = { "endpoints" => ["/"], "concurrency" => [8], "duration_s" => 2, "warmup_s" => 0.5, "repeats" => 12,
                  "deployments" => 6, "servers" => [{ "server" => "puma", "threads" => 8 }] }.freeze

namespace :docs do
  namespace :runs do
    desc "rackbench calibrate at its defaults, its output kept in #{DOCS_CALIBRATE} (doc/calibrate.md)"
    task :calibrate do
      rm_rf DOCS_CALIBRATE
      DocsTranscripts.record(DOCS_CALIBRATE, ["bin/rackbench", "calibrate", "--results", DOCS_CALIBRATE],
                             shown: "rackbench calibrate --results #{DOCS_CALIBRATE}", chdir: DOCS_ROOT)
    end

    desc "rackbench ab on two versions of a sleeping app, its output kept in #{DOCS_AB} (doc/ab.md)"
    task :ab do
      rm_rf DOCS_AB
      DocsTranscripts.ab_apps(DOCS_AB)
      # 1: B regressed, which is what the example shows.
      DocsTranscripts.record(DOCS_AB, [File.join(DOCS_ROOT, "bin", "rackbench"), "ab", "old", "new", "--suite", "ab.yml"],
                             shown: "rackbench ab old new --suite ab.yml", tolerated: [0, 1])
    end
  end

  desc "doc/calibrate.md's output: what `rake docs:runs:calibrate` kept in #{DOCS_CALIBRATE}"
  task :calibrate do
    DocsTranscripts.write("doc/calibrate.md", "calibrate", DOCS_CALIBRATE)
  end

  desc "doc/ab.md's example: what `rake docs:runs:ab` kept in #{DOCS_AB}"
  task :ab do
    DocsTranscripts.write("doc/ab.md", "ab", DOCS_AB, status: true)
  end
end

# Recording a command's output and writing it into a page's marked block.
module DocsTranscripts
  extend Rake::FileUtilsExt

  module_function

  def record(dir, argv, **options)
    DocsHelper.load_rackbench
    require_relative "docs/transcript"
    Rackbench::Docs::Transcript.record(dir, argv, **options)
  end

  # Writes a page's block from a kept transcript: how busy the machine was, then the session.
  def write(page, block, dir, status: false)
    DocsHelper.load_rackbench
    require_relative "docs/transcript"
    kept = Rackbench::Docs::Transcript.load(dir)
    DocsHelper.replace_block(page, block, <<~MD)
      On a #{Rackbench::Pinning.available_cpus.size}-core machine shared with other work (load average
      #{kept.loadavg_text} over 1, 5 and 15 minutes as it ended), `bundle exec rake docs:runs:#{block}` ran
      and kept (`rake docs:#{block}` writes it here):

      #{kept.markdown(status: status)}
    MD
  end

  # The two app folders and the suite of doc/ab.md's example, in dir.
  def ab_apps(dir)
    require "yaml"
    DOCS_AB_APPS.each do |name, range|
      mkdir_p File.join(dir, name)
      File.write(File.join(dir, name, "config.ru"),
                 "run ->(_env) { sleep(rand(#{range})); [200, { \"content-type\" => \"text/plain\" }, [\"ok\"]] }\n")
    end
    File.write(File.join(dir, "ab.yml"), DOCS_AB_SUITE.to_yaml)
  end
end

# doc/calibrate.md's simulation: Stein's first-stage interval against every start's, on synthetic A/A data
# (seeded), at a quiet machine's spread and at a busy one's.
DOCS_CALIBRATION_SIMULATION = ENV.fetch("CALIBRATION_SIMULATION_RESULTS", "tmp/docs-runs/calibration-simulation")
# The duet spreads: the ratio from a ratio window a start (ratio: duet, the default), its window noise as
# bench/calibration/run measured it (a start's duet log ratio 1-3 % apart at load 2-6, 2-5 % at load 11-38).
DOCS_CALIBRATION_SPREADS = { "quiet" => %w[--within 0.05 --between 0.03 --common 0],
                             "starved" => %w[--within 0.05 --between 0.03 --common 0 --starved 0.05],
                             "busy" => %w[--within 0.30 --between 0 --common 0.12],
                             "quiet-duet" => %w[--within 0.05 --between 0.03 --common 0 --duet-cv 0.02],
                             "busy-duet" => %w[--within 0.30 --between 0 --common 0.12 --duet-cv 0.03] }.freeze

namespace :docs do
  namespace :runs do
    desc "bench/calibration/run --simulate --all-starts at a quiet and a busy spread, kept in #{DOCS_CALIBRATION_SIMULATION}"
    task :calibration_simulation do
      rm_rf DOCS_CALIBRATION_SIMULATION
      DOCS_CALIBRATION_SPREADS.each do |name, spread|
        argv = ["bench/calibration/run", "--simulate", "--rules", *spread]
        DocsTranscripts.record(File.join(DOCS_CALIBRATION_SIMULATION, name), argv, shown: argv.join(" "), chdir: DOCS_ROOT)
      end
    end
  end

  desc "doc/calibrate.md's simulation: what `rake docs:runs:calibration_simulation` kept in #{DOCS_CALIBRATION_SIMULATION}"
  task :calibration_simulation do
    DocsHelper.load_rackbench
    require_relative "docs/transcript"
    sessions = DOCS_CALIBRATION_SPREADS.keys.map do |name|
      Rackbench::Docs::Transcript.load(File.join(DOCS_CALIBRATION_SIMULATION, name)).markdown
    end
    DocsHelper.replace_block("doc/calibrate.md", "calibration-simulation", sessions.join("\n\n"))
  end
end
