# frozen_string_literal: true

module Rackbench
  # `rackbench run --resume [RUN]`: a run that did not finish (failed, say a
  # service that could not start; interrupted by a signal; or running when
  # the rackbench that ran it is gone, e.g. after kill -9)
  # continued with its stored settings, seed and order. Finished cells are
  # kept as they are, so are the repeats of unfinished cells; the Runner
  # measures only what is missing and the run ends as one run.
  #
  #   resume = Resume.new(store, run_id)   # run_id nil: the latest run
  #   resume.suite                         # the Suite as the run had it
  #   resume.plan                          # the cells it planned, as the store kept them
  #   Runner.new(resume.suite, store: store, resume: resume).run
  class Resume
    RESUMABLE = %w[failed interrupted running].freeze
    APPLIED = %w[smoke scale].freeze # blocks the run's settings already carry out

    attr_reader :run

    def initialize(store, run_id = nil)
      @store = store
      @run = store.run(run_id)
      check_resumable!
    end

    def id = run["id"]

    # The suite rebuilt from the run's settings (overrides and scaling already
    # applied, the drawn seed kept), so the order is the same. Values the
    # store kept secret come back from the suite file as it is now (checked
    # against their markers), an env_file's from the file beside it. Without
    # its smoke: and scale: blocks: they were applied when the run was made,
    # and their mappings came back from the store's JSON with string keys
    # ({"250" => 10}), which a suite refuses (a seed run could not resume).
    def suite
      data = run["settings"].slice(*(Suite::KEYS.keys - APPLIED))
      data = restore_secrets(data) if Store::Redaction.marked?(JSON.generate(data))
      Suite.new(data.to_yaml, path: run["suite_path"] || "(run #{id})")
    end

    # The run's cells as it stored them when it was created: never planned
    # again, so a rackbench whose planning changed meanwhile measures the
    # same cells.
    def plan
      rows = @store.planned_cells(id)
      if rows.empty?
        raise ConfigError, "run #{id} was stored by a rackbench that did not keep its planned cells: " \
                           "it cannot be resumed; run its suite again"
      end

      Plan.stored(suite, rows)
    end

    # Fills the Runner's cell states ({position => CellState}) with what the
    # run measured: cells already recorded (ok or failed) are done, the
    # others keep their repeats and the load time they took.
    def restore(states, warmup_s:)
      @store.repeats(id).each do |position, repeats|
        state = states[position] or next
        state.repeats.concat(repeats)
        state.load_s = repeats.sum { |r| r.result.duration_s.to_f + warmup_s }
      end
      @store.cells(id).each do |c|
        next unless (state = states[c["position"]])

        state.done = true
        state.failed = c["status"] == "failed"
      end
    end

    private

    def restore_secrets(data)
      path = run["suite_path"].to_s
      typed = File.file?(path) ? Psych.safe_load_file(path, aliases: true) : {}
      typed = {} unless typed.is_a?(Hash)
      @store.redaction(Suite::Secrets.new(typed)).restore(data, typed)
    rescue ConfigError, Psych::Exception => e
      raise ConfigError, "run #{id}: #{path}: #{e.message}"
    end

    def check_resumable!
      unless RESUMABLE.include?(run["status"])
        raise ConfigError, "run #{id} is #{run["status"]}: only a failed or interrupted run can be resumed"
      end

      pid = run.dig("machine", "rackbench_pid")
      return unless run["status"] == "running" && pid && pid != Process.pid && rackbench_alive?(pid)

      raise ConfigError, "run #{id} is still running (rackbench pid #{pid}); stop it first"
    end

    def rackbench_alive?(pid)
      ProcessTable.live?(pid) && Procfs.command_line(pid).to_s.include?("rackbench")
    end
  end
end
