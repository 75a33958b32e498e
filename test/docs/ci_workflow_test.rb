# frozen_string_literal: true

require "test_helper"
require "open3"
require "psych"

module Rackbench
  # doc/ci.md's GitHub Actions workflow, its shell steps run as written:
  # each `run:` of the block, in order, by bash as Actions runs it, with
  # $GITHUB_ENV carried from step to step (calibrate's simulation of its
  # procedure at 40 A/A runs instead of 400: SHORTER), against two revisions of a small
  # app in a git repository made here (the second four times slower). The
  # gate must fail with exit 1, and the job summary must be the markdown
  # rackbench renders again from the run it stored.
  class CiWorkflowTest < Minitest::Test
    DOC = File.join(ROOT, "doc", "ci.md")
    # The steps that need the network, and what stands in for them here.
    LEFT_OUT = {
      "Install rackbench" => "this checkout's bin/ is on PATH",
      "Comment on the pull request" => "GitHub's API is not reachable from a test"
    }.freeze

    # What the test changes in a step's script, and to what: calibrate's
    # 400 simulated A/A runs took some 9 CPU-s here, after its measuring was
    # done, and nothing this test checks reads them (its recommendation comes
    # from the measured spread, not from the simulation).
    SHORTER = { "--windows 2 --format json" => "--windows 2 --trials 40 --format json" }.freeze

    # A calibrate and an ab, each starting servers several times: on a busy 2-core machine past the usual limit.
    def time_limit_s = [TestDeadline::TEST_TIMEOUT_S, 900].max

    def workflow
      block = File.read(DOC)[/<!-- github-workflow -->\n```yaml\n(.*?)```/m, 1]
      refute_nil block, "doc/ci.md has the workflow block after <!-- github-workflow -->"
      Psych.safe_load(block)
    end

    def git(*args)
      out, status = Open3.capture2e("git", "-C", @repo, "-c", "user.name=t", "-c", "user.email=t@example.com", *args)
      assert status.success?, out
      out.strip
    end

    # An app whose answer sleeps sleep_ms (±25 %: clients drift out of step), and its suite.
    def commit_app(sleep_ms, message)
      range = "#{sleep_ms * 0.75 / 1000}..#{sleep_ms * 1.25 / 1000}"
      File.write(File.join(@repo, "config.ru"),
                 "run ->(_env) { sleep(rand(#{range})); [200, { \"content-type\" => \"text/plain\" }, [\"ok\"]] }\n")
      File.write(File.join(@repo, "rackbench.yml"), <<~YAML)
        app: config.ru
        endpoints: [/]
        concurrency: [8]
        duration_s: 1
        warmup_s: 0.5
        servers:
          - {server: puma, threads: 16}
      YAML
      git("add", ".")
      git("commit", "-q", "-m", message)
      git("rev-parse", "HEAD")
    end

    def test_the_workflow_steps_fail_the_gate_on_a_slower_revision_and_publish_the_stored_answer
      @repo = FileUtils.mkdir_p(File.join(tmpdir, "app")).first
      git("init", "-q")
      base = commit_app(100, "fast")
      head = commit_app(400, "four times slower")
      job = workflow.fetch("jobs").fetch("gate")
      steps = job.fetch("steps").select { |s| s["run"] }
      assert_equal LEFT_OUT.keys.sort, (steps.map { |s| s["name"] } & LEFT_OUT.keys).sort
      env = runner_env(job, base, head)
      ran = steps.reject { |s| LEFT_OUT.key?(s["name"]) }
      assert_equal(["Calibrate on this runner", "Measure the pull request against its base"], ran.map { |s| s["name"] })
      assert_includes ran.first.fetch("run"), SHORTER.keys.first, "the calibrate step has what SHORTER changes"
      assert_equal 0, run_step(ran.first, env), "calibrate passes: #{@outputs.join("\n")}"
      assert_match(/\A\d+\z/, env["RACKBENCH_WINDOWS"].to_s, "calibrate's recommendation reached the next step")
      assert_operator Integer(env["RACKBENCH_WINDOWS"]), :<=, Integer(env["RACKBENCH_MAX_WINDOWS"]), "capped windows"
      assert_equal 1, run_step(ran.last, env), "the gate fails, B regressed: #{@outputs.join("\n")}"
      summary = File.read(env["GITHUB_STEP_SUMMARY"])
      assert_equal "### rackbench ab: REGRESSED", summary.lines.first&.chomp, @outputs.join("\n")
      assert_equal rendered_from_store(env, base, head), summary, "the summary is the stored run's answer"
      assert_nothing_left
    end

    private

    # What Actions gives every step: the job's env (its caps lowered to keep this short), its files, PATH.
    def runner_env(job, base, head)
      temp = FileUtils.mkdir_p(File.join(tmpdir, "runner")).first
      files = %w[GITHUB_ENV GITHUB_STEP_SUMMARY].to_h { |k| [k, File.join(temp, k.downcase).tap { |f| FileUtils.touch(f) }] }
      job.fetch("env", {}).transform_values(&:to_s).merge(files).merge(
        "RACKBENCH_CALIBRATE_STARTS" => "2", "RACKBENCH_MAX_STARTS" => "3", "RACKBENCH_MAX_WINDOWS" => "2",
        "RUNNER_TEMP" => temp,
        "PATH" => "#{File.join(ROOT, "bin")}:#{ENV.fetch("PATH")}",
        "EXPRESSIONS" => { "github.event.pull_request.base.sha" => base, "github.event.pull_request.head.sha" => head }
      )
    end

    # One step's script run by bash in the repository, with $GITHUB_ENV's lines added after it.
    def run_step(step, env)
      own = step.fetch("env", {}).transform_values { |v| evaluate(v.to_s, env.fetch("EXPRESSIONS")) }
      out, status = Bundler.with_unbundled_env do
        Open3.capture2e(env.except("EXPRESSIONS").merge(own), "bash", "--noprofile", "--norc", "-eo", "pipefail", "-c",
                        shortened(step.fetch("run")), chdir: @repo)
      end
      @outputs = (@outputs || []) << "#{step["name"]}:\n#{out}"
      File.readlines(env["GITHUB_ENV"], chomp: true).each { |line| env.store(*line.split("=", 2)) }
      status.exitstatus
    end

    # The script with SHORTER's changes made where it has them.
    def shortened(script) = SHORTER.reduce(script) { |text, (from, to)| text.sub(from, to) }

    # "${{ github.event.pull_request.base.sha }}" as Actions would fill it in.
    def evaluate(text, expressions) = text.gsub(/\$\{\{\s*(.*?)\s*\}\}/) { expressions.fetch(Regexp.last_match(1)) }

    # The gate's markdown made again from the ab run in the results folder.
    def rendered_from_store(env, base, head)
      store = Store.new(File.join(env["RUNNER_TEMP"], "ab"))
      run = store.run
      versions = Versions.parse(base, head, app: File.join(@repo, "config.ru"))
      a, b = versions.split(store.measurements(run["id"]))
      regression = Regression.new(a, b, paired: true, key: versions.key)
      Reports::GateSummary.new(regression, run.merge("suite" => "A = #{versions.a.describe}"),
                               run.merge("suite" => "B = #{versions.b.describe}"), status: 1, command: "ab").markdown
    ensure
      store&.close
    end
  end
end
