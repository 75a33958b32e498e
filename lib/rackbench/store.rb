# frozen_string_literal: true

require "fileutils"
require "json"
require "sequel/core"
require "time"

Sequel.extension :migration

module Rackbench
  # The results store: every run, its planned cells, its cells and their
  # repeats (each window's figures and resources), in SQLite (a file in the
  # results folder, the default) or in a shared PostgreSQL database
  # (--results postgres://...), through one Sequel implementation. Repeats
  # and cells are written as each finishes, so a run interrupted half way
  # keeps what it measured. Raw engine output and server
  # logs live in a folder beside the database, one folder per run
  # (runs/RUN_ID/); see Store::Location.
  #
  # The schema is versioned by Sequel migrations, one file each in
  # store/migrations/ (NNN_name.rb); the database's schema_info says how far it is.
  #
  # Nothing secret is stored: everything written passes through the run's
  # Redaction (its suite's Secrets as markers). A window's histograms and
  # series are stored compact (Compact); the reader takes both forms.
  class Store
    DEFAULT_DIR = "rackbench-results"
    FILE = "rackbench.sqlite3"
    MIGRATIONS = Dir[File.join(__dir__, "store", "migrations", "*.rb")].freeze
    require_relative "store/location"
    require_relative "store/redaction"
    require_relative "store/redacted_output"
    require_relative "store/compact"

    attr_reader :location

    # location: a results folder or a postgres:// URL (see Store::Location).
    def initialize(location = Location.default)
      @location = location.is_a?(Location) ? location : Location.new(location)
      @db = @location.connect
      @redactions = {}
      @measured = {} # {[run id, position] => a finished cell's Measurement}: built once (#finish_cell, #measurements)
      migrate
    end

    # The folder of raw output (runs/RUN_ID/); with SQLite, also the database's.
    def dir = location.dir

    # The SQLite file, or the PostgreSQL URL without its password.
    def path = location.to_s

    def close
      @db.disconnect
      Sequel.synchronize { Sequel::DATABASES.delete(@db) }
    end

    def schema_version = @db[:schema_info].get(:version)

    # plan: the Plan whose cells the run measures, stored with it (resume
    # and reports read them back: #planned_cells); nil for a tune run, whose
    # cells are found as it goes. The suite's secrets are kept out of all
    # the run's rows (#redaction).
    def create_run(suite:, settings:, machine:, pinning:, plan: nil)
      hide = redaction(Suite::Secrets.of(suite))
      suite_yaml = File.exist?(suite.path.to_s) ? hide.yaml(File.read(suite.path)) : nil
      id = @db.transaction do
        id = @db[:runs].insert(suite: suite.name, suite_path: suite.path, suite_yaml: suite_yaml,
                               settings_json: hide.data(settings).to_json, machine_json: hide.data(machine).to_json,
                               pinning_json: pinning.to_json, dir: "", status: "running", started_at: now)
        @db[:planned_cells].multi_insert(plan.cells.map { |cell| planned_row(id, cell, hide) }) if plan
        id
      end
      @redactions[id] = hide
      run_dir = File.join(dir, "runs", id.to_s)
      FileUtils.mkdir_p(run_dir)
      @db[:runs].where(id: id).update(dir: run_dir)
      run(id)
    end

    # The cells the run planned, in plan order: rows with the CellKey's
    # columns, "position" and "endpoint_entry" (the suite's endpoint entry).
    def planned_cells(run_id)
      rows(@db[:planned_cells].where(run_id: run_id).order(:position)).map do |r|
        r["config"] = JSON.parse(r.delete("config_json"))
        r["endpoint_entry"] = JSON.parse(r.delete("endpoint_json"))
        r
      end
    end

    # Adds keys to a run's settings (a tune run's answer, once it is decided).
    # A suite setting among them (how intervals are computed, say) lets the
    # run's cells be measured again; the facts a run adds later (an answer,
    # what a budget spent) are not suite settings and change no figure.
    def merge_settings(id, extra)
      settings = run(id)["settings"] || {}
      @measured.delete_if { |(run_id, _), _| run_id == Integer(id) } if extra.keys.any? { |k| Suite::KEYS.key?(k) }
      @db[:runs].where(id: id).update(settings_json: settings.merge(redaction_of(id).data(extra)).to_json)
    end

    # What keeps secrets (Suite::Secrets) out of this store, as markers
    # keyed with the store's own key; by default env names that look secret
    # and URL passwords only.
    def redaction(secrets = Suite::Secrets.none)
      @store_key ||= @db[:store_keys].where(name: "redaction").get(:value)
      Redaction.new(secrets, key: @store_key)
    end

    # A run ends "finished", "interrupted" (ended_by a signal) or "failed"
    # (ended_by anything else: a service that could not start, a full results
    # disk), with the error's message as its reason. The files of its folder
    # are scrubbed of its secrets (Redaction#scrub_files).
    def finish_run(id, status, ended_by: nil)
      failed = ended_by.is_a?(StandardError)
      @db[:runs].where(id: id).update(status: failed ? "failed" : status,
                                      reason: failed ? redaction_of(id).text(ended_by.message) : nil, finished_at: now)
      dir = @db[:runs].where(id: id).get(:dir).to_s
      redaction_of(id).scrub_files(dir) unless dir.empty? # the logs its servers and commands wrote
    end

    # A resumed run (Resume) is running again until it finishes; suite: the
    # Suite it runs, whose secrets stay out as at its start.
    # A stopped run running again (--resume); the time it stood stopped is
    # kept in its settings' "paused" ([{"from", "to"}]), so its wall time
    # counts only the time it ran.
    def reopen_run(id, suite: nil)
      @redactions[Integer(id)] = redaction(Suite::Secrets.of(suite)) if suite
      stopped = run(id)
      @db[:runs].where(id: id).update(status: "running", reason: nil, finished_at: nil)
      paused = stopped.dig("settings", "paused").to_a
      merge_settings(id, "paused" => paused + [{ "from" => stopped["finished_at"], "to" => now }]) if stopped["finished_at"]
      run(id)
    end

    # record: a Hash with the cells columns (json fields as Ruby objects).
    def add_cell(run_id, record)
      row = redaction_of(run_id).data(record.transform_keys(&:to_s))
      %w[config result resources].each { |k| row["#{k}_json"] = row.delete(k)&.then { |v| Compact.pack(v).to_json } }
      %w[server_command engine_command].each { |k| row[k] = row[k].to_json if row[k].is_a?(Array) }
      row["run_id"] = run_id
      row["finished_at"] ||= now
      @db[:cells].insert(row.transform_keys(&:to_sym))
    end

    # One measured window of the cell at position (a Measurement::Repeat),
    # its histograms and series compact (Compact).
    def add_repeat(run_id, position, repeat)
      hide = redaction_of(run_id)
      @db[:repeats].insert(run_id: run_id, position: position, idx: repeat.index, deployment: repeat.deployment,
                           round: repeat.round, result_json: Compact.pack(hide.data(repeat.result.to_h)).to_json,
                           resources_json: Compact.pack(hide.data(repeat.resources)).to_json,
                           noise_json: hide.data(repeat.noise).to_json, drain_s: repeat.drain_s,
                           started_at: repeat.started_at)
    end

    # A finished cell (record: its row, as for #add_cell, without figures):
    # stored, then its Measurement built from what was stored, as
    # #measurements reads it back; its figures become the row's summary
    # columns, for queries over the store. Returns the Measurement, which
    # #measurements hands out again: a cell's is built once per store.
    # One transaction: a reader (a report, a test watching the store) never
    # sees the cell's row without its summary figures.
    def finish_cell(run_id, record)
      @db.transaction do
        add_cell(run_id, record)
        position = record.fetch("position")
        row = cells(run_id, position: position).first
        measurement = measurement_of(run_id, row, repeats(run_id, position: position)[position], interval_options(run(run_id)))
        figures = summary(measurement)
        @db[:cells].where(run_id: run_id, position: position).update(figures.transform_keys(&:to_sym)) unless figures.empty?
        row.merge!(figures) # as #cells reads it from now on
        measurement
      end
    end

    # {position => [Measurement::Repeat]} of a run (position: of one cell only).
    def repeats(run_id, position: nil)
      dataset = @db[:repeats].where(run_id: run_id)
      rows = rows((position ? dataset.where(position: position) : dataset).order(:position, :idx))
      rows.group_by { |r| r["position"] }.transform_values do |list|
        list.map do |r|
          Measurement::Repeat.new(
            index: r["idx"], deployment: r["deployment"], round: r["round"], drain_s: r["drain_s"],
            result: Result.from_h(Compact.unpack(JSON.parse(r["result_json"]))),
            resources: Compact.unpack(JSON.parse(r["resources_json"] || "{}")),
            noise: JSON.parse(r["noise_json"] || "null"), started_at: r["started_at"]
          )
        end
      end
    end

    # Every cell of a run as a Measurement, in plan order. A cell whose
    # repeats were measured but whose run stopped before it was complete is
    # "incomplete" (not ok, with how far it got). A finished cell's
    # Measurement is built once per store, and handed out again after.
    def measurements(run_id)
      run = run(run_id)
      by_position = repeats(run["id"])
      cells = cells(run["id"])
      done = cells.map { |c| c["position"] }
      partial = by_position.keys - done
      planned = partial.empty? ? {} : planned_cells(run["id"]).to_h { |c| [c["position"], c] }
      rows = cells + partial.map { |position| incomplete_row(planned, position, by_position[position]) }
      options = interval_options(run)
      rows.sort_by { |r| r["position"] }.map { |row| measurement_of(run["id"], row, by_position[row["position"]], options) }
    end

    # {server adapter => [seconds]}: the boot_s each start's first window
    # kept (resources), over the finished cells of the runs run_ids; read
    # without the windows' results (BootHistory, before a run starts).
    def boot_seconds(run_ids)
      repeats = Sequel[:repeats]
      @db[:repeats].join(:cells, run_id: :run_id, position: :position)
                   .where(repeats[:run_id] => run_ids).where(Sequel.like(repeats[:resources_json], '%"boot_s"%'))
                   .select(Sequel[:cells][:server], repeats[:resources_json]).all
                   .each_with_object(Hash.new { |h, k| h[k] = [] }) do |row, seen|
        boot_s = JSON.parse(row[:resources_json])["boot_s"]
        seen[row[:server]] << boot_s if boot_s
      end
    end

    def runs(limit: 20)
      rows(@db[:runs].reverse(:id).limit(limit)).map { |r| decode_run(r) }
    end

    # A run by id, or the latest run when id is nil.
    def run(id = nil)
      row = rows((id ? @db[:runs].where(id: Integer(id)) : @db[:runs].reverse(:id)).limit(1)).first
      raise ConfigError, id ? "no run #{id} in #{path}" : "no runs in #{path} yet (rackbench run first)" unless row

      decode_run(row)
    rescue ArgumentError
      raise ConfigError, "run id must be a number, got #{id.inspect}"
    end

    # A run's cell rows (position: one cell's), json columns decoded.
    def cells(run_id, position: nil)
      dataset = @db[:cells].where(run_id: run_id)
      rows((position ? dataset.where(position: position) : dataset).order(:position)).map do |r|
        %w[config result resources].each { |k| r[k] = r.delete("#{k}_json")&.then { |j| Compact.unpack(JSON.parse(j)) } }
        %w[server_command engine_command].each { |k| r[k] = JSON.parse(r[k]) if r[k]&.start_with?("[") }
        r
      end
    end

    # Copies run run_id of another Store into this one (a laptop's SQLite run
    # into the team's PostgreSQL, say), rows as they are; the run gets this
    # store's next id and keeps the folder of raw output it had. Returns the run.
    def import_run(from, run_id)
      source = from.raw_rows(run_id)
      @db.transaction do
        id = @db[:runs].insert(source[:run].except(:id))
        source[:cells].each { |cell| @db[:cells].insert(cell.except(:id).merge(run_id: id)) }
        @db[:repeats].multi_insert(source[:repeats].map { |r| r.merge(run_id: id) })
        @db[:planned_cells].multi_insert(source[:planned_cells].map { |r| r.merge(run_id: id) })
        run(id)
      end
    end

    protected

    # A run's rows as stored (symbol keys, JSON undecoded), for import_run.
    def raw_rows(run_id)
      id = run(run_id)["id"]
      cells = @db[:cells].where(run_id: id).order(:position).all
      { run: @db[:runs].where(id: id).first, cells: cells, repeats: @db[:repeats].where(run_id: id).all,
        planned_cells: @db[:planned_cells].where(run_id: id).all }
    end

    MIGRATION_LOCK_KEY = 0x7261636b # "rack"
    private_constant :MIGRATION_LOCK_KEY

    private

    # A cell row's Measurement (stored: its repeats; options: #interval_options);
    # a finished cell's (a row of the cells table: it has an id) kept, as
    # neither its row nor its repeats change.
    def measurement_of(run_id, row, stored, options)
      build = -> { stored ? Measurement.new(row, stored, **options) : Measurement.from_row(row, precision: options[:precision]) }
      row["id"] ? @measured[[Integer(run_id), row["position"]]] ||= build.call : build.call
    end

    # How the run's settings have its intervals computed (Measurement's options).
    def interval_options(run)
      settings = run["settings"] || {}
      design = settings.key?("duration_s") ? RepeatPolicy.new(settings).interval_options.except(:precision) : {}
      { precision: settings["precision"], **design }
    end

    # A finished cell's figures as columns, for queries over the store.
    def summary(measurement)
      return {} unless measurement.ok?

      { "requests_per_s" => measurement.requests_per_s, "latency_mean_us" => measurement.latency_mean_ms&.*(1000),
        "latency_p99_us" => measurement.latency_ms(99)&.*(1000), "requests" => measurement.requests,
        "errors" => measurement.errors }
    end

    # What is known of a cell the run did not finish: its planned key (a run
    # stored before planned cells were kept: its position only).
    def incomplete_row(planned, position, repeats)
      known = planned[position]&.slice(*CellKey.members.map(&:to_s), "label") || { "label" => "cell #{position}" }
      known.merge("position" => position, "status" => "incomplete",
                  "reason" => "the run stopped after #{repeats.size} repeat(s) of this cell")
    end

    def planned_row(run_id, cell, hide)
      columns = hide.data(cell.key.columns)
      columns.merge("run_id" => run_id, "position" => cell.index, "config_json" => columns.delete("config").to_json,
                    "endpoint_json" => hide.data(cell.endpoint).to_json).transform_keys(&:to_sym)
    end

    # The run's Redaction: its suite's (#create_run, #reopen_run), else the Secrets of none.
    def redaction_of(run_id) = @redactions[Integer(run_id)] ||= redaction

    def decode_run(row)
      %w[settings machine pinning].each { |k| row[k] = JSON.parse(row.delete("#{k}_json") || "null") }
      row
    end

    # Rows as Hashes with String keys, the same from SQLite and PostgreSQL.
    def rows(dataset) = dataset.all.map { |r| r.transform_keys(&:to_s) }

    # One process migrates at a time: a test and the rackbench it started (or
    # two rackbench runs) may open a new store at once, and two migrators
    # racing on one database both try to create its tables.
    def migrate
      with_migration_lock do
        adopt_user_version
        migrations = File.join(__dir__, "store", "migrations")
        next if Sequel::Migrator.is_current?(@db, migrations)

        Sequel::Migrator.run(@db, migrations)
        @db.run("PRAGMA wal_checkpoint(TRUNCATE)") unless location.postgres? # no page of before left in the log
      end
    end

    def with_migration_lock(&)
      return with_advisory_lock(&) if location.postgres?

      FileUtils.mkdir_p(dir)
      File.open(File.join(dir, ".migrate.lock"), File::RDWR | File::CREAT, 0o644) do |lock|
        lock.flock(File::LOCK_EX)
        yield
      end
    end

    def with_advisory_lock
      @db.synchronize do
        @db.get(Sequel.function(:pg_advisory_lock, MIGRATION_LOCK_KEY))
        begin
          yield
        ensure
          @db.get(Sequel.function(:pg_advisory_unlock, MIGRATION_LOCK_KEY))
        end
      end
    end

    # Stores written before Sequel counted their schema in PRAGMA user_version:
    # carry that count over to schema_info, so the migrations that ran are skipped.
    def adopt_user_version
      return if location.postgres? || @db.table_exists?(:schema_info) || !@db.table_exists?(:runs)

      version = @db.fetch("PRAGMA user_version").single_value
      @db.create_table(:schema_info) { Integer :version, default: 0, null: false }
      @db[:schema_info].insert(version: version)
    end

    def now = Time.now.utc.iso8601(3)
  end
end
