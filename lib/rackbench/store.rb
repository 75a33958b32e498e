# frozen_string_literal: true

require "fileutils"
require "json"
require "sqlite3"
require "time"

module Rackbench
  # The results store: one SQLite file holding every run, its cells and their
  # resource samples. Cells are written as each finishes, so a run interrupted
  # half way keeps what it measured. Raw engine output and server logs live
  # beside the database, one folder per run (runs/RUN_ID/).
  #
  # The schema is versioned with PRAGMA user_version; MIGRATIONS[n] moves n -> n+1.
  class Store
    DEFAULT_DIR = "rackbench-results"
    FILE = "rackbench.sqlite3"

    MIGRATIONS = [
      <<~SQL,
        CREATE TABLE runs (
          id INTEGER PRIMARY KEY,
          suite TEXT NOT NULL,
          suite_path TEXT,
          suite_yaml TEXT,
          settings_json TEXT NOT NULL,
          machine_json TEXT NOT NULL,
          pinning_json TEXT,
          dir TEXT NOT NULL,
          status TEXT NOT NULL,
          started_at TEXT NOT NULL,
          finished_at TEXT
        );
        CREATE TABLE cells (
          id INTEGER PRIMARY KEY,
          run_id INTEGER NOT NULL REFERENCES runs(id),
          position INTEGER NOT NULL,
          server TEXT NOT NULL,
          label TEXT NOT NULL,
          config_json TEXT NOT NULL,
          endpoint TEXT NOT NULL,
          path TEXT NOT NULL,
          concurrency INTEGER NOT NULL,
          engine TEXT NOT NULL,
          status TEXT NOT NULL,
          reason TEXT,
          log_tail TEXT,
          server_version TEXT,
          server_command TEXT,
          engine_command TEXT,
          requests_per_s REAL,
          latency_mean_us REAL,
          latency_p99_us REAL,
          requests INTEGER,
          errors INTEGER,
          result_json TEXT,
          resources_json TEXT,
          started_at TEXT NOT NULL,
          finished_at TEXT
        );
        CREATE TABLE samples (
          cell_id INTEGER NOT NULL REFERENCES cells(id),
          t_s REAL NOT NULL,
          rss_bytes INTEGER,
          pss_bytes INTEGER,
          cpu_s REAL,
          processes INTEGER,
          threads INTEGER
        );
        CREATE INDEX cells_run ON cells(run_id, position);
        CREATE INDEX samples_cell ON samples(cell_id);
      SQL
      # 2: repeats (rackbench 0.2). Each repeat is written as it finishes, so
      # an interrupted run keeps every measured window; the cell row follows
      # when the cell is complete.
      <<~SQL
        CREATE TABLE repeats (
          run_id INTEGER NOT NULL REFERENCES runs(id),
          position INTEGER NOT NULL,
          idx INTEGER NOT NULL,
          deployment INTEGER,
          round INTEGER,
          result_json TEXT NOT NULL,
          resources_json TEXT,
          noise_json TEXT,
          drain_s REAL,
          started_at TEXT,
          PRIMARY KEY (run_id, position, idx)
        );
      SQL
    ].freeze

    attr_reader :dir

    def initialize(dir = DEFAULT_DIR)
      @dir = File.expand_path(dir)
      FileUtils.mkdir_p(@dir)
      @db = SQLite3::Database.new(File.join(@dir, FILE))
      @db.results_as_hash = true
      @db.busy_timeout = 5000
      migrate
    end

    def path = File.join(dir, FILE)

    def close = @db.close

    def schema_version = @db.get_first_value("PRAGMA user_version")

    def create_run(suite:, settings:, machine:, pinning:)
      suite_yaml = File.exist?(suite.path.to_s) ? File.read(suite.path) : nil
      @db.execute(<<~SQL, [suite.name, suite.path, suite_yaml, settings.to_json, machine.to_json, pinning.to_json, now])
        INSERT INTO runs (suite, suite_path, suite_yaml, settings_json, machine_json, pinning_json, dir, status, started_at)
        VALUES (?, ?, ?, ?, ?, ?, '', 'running', ?)
      SQL
      id = @db.last_insert_row_id
      run_dir = File.join(dir, "runs", id.to_s)
      FileUtils.mkdir_p(run_dir)
      @db.execute("UPDATE runs SET dir = ? WHERE id = ?", [run_dir, id])
      run(id)
    end

    def finish_run(id, status)
      @db.execute("UPDATE runs SET status = ?, finished_at = ? WHERE id = ?", [status, now, id])
    end

    # record: a Hash with the cells columns (json fields as Ruby objects); samples: [Sampler::Sample]
    def add_cell(run_id, record, samples = [])
      row = record.transform_keys(&:to_s)
      %w[config result resources].each { |k| row["#{k}_json"] = row.delete(k)&.to_json }
      %w[server_command engine_command].each { |k| row[k] = row[k].to_json if row[k].is_a?(Array) }
      row["run_id"] = run_id
      row["finished_at"] ||= now
      cols = row.keys
      @db.transaction do
        @db.execute("INSERT INTO cells (#{cols.join(",")}) VALUES (#{(["?"] * cols.size).join(",")})", row.values)
        cell_id = @db.last_insert_row_id
        samples.each do |s|
          @db.execute("INSERT INTO samples VALUES (?, ?, ?, ?, ?, ?, ?)",
                      [cell_id, s.t_s, s.rss_bytes, s.pss_bytes, s.cpu_s, s.processes, s.threads])
        end
        cell_id
      end
    end

    # One measured window of the cell at position (a Measurement::Repeat).
    def add_repeat(run_id, position, repeat)
      @db.execute(<<~SQL, [run_id, position, repeat.index, repeat.deployment, repeat.round, repeat.result.to_h.to_json,
        INSERT INTO repeats (run_id, position, idx, deployment, round, result_json, resources_json, noise_json,
                             drain_s, started_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      SQL
                           repeat.resources.to_json, repeat.noise.to_json, repeat.drain_s, repeat.started_at])
    end

    # {position => [Measurement::Repeat]} of a run.
    def repeats(run_id)
      rows = @db.execute("SELECT * FROM repeats WHERE run_id = ? ORDER BY position, idx", [run_id])
      rows.group_by { |r| r["position"] }.transform_values do |list|
        list.map do |r|
          Measurement::Repeat.new(
            index: r["idx"], deployment: r["deployment"], round: r["round"], drain_s: r["drain_s"],
            result: Result.from_h(JSON.parse(r["result_json"])), resources: JSON.parse(r["resources_json"] || "{}"),
            noise: JSON.parse(r["noise_json"] || "null"), started_at: r["started_at"]
          )
        end
      end
    end

    # Every cell of a run as a Measurement, in plan order. A cell whose
    # repeats were measured but whose run stopped before it was complete is
    # "incomplete" (not ok, with how far it got).
    def measurements(run_id)
      run = run(run_id)
      by_position = repeats(run["id"])
      precision = run.dig("settings", "precision")
      cells = cells(run["id"])
      done = cells.map { |c| c["position"] }
      partial = by_position.keys - done
      rows = cells + partial.map { |position| incomplete_row(run, position, by_position[position]) }
      rows.sort_by { |r| r["position"] }.map do |row|
        stored = by_position[row["position"]]
        stored ? Measurement.new(row, stored, precision: precision) : Measurement.from_row(row, precision: precision)
      end
    end

    def runs(limit: 20)
      @db.execute("SELECT * FROM runs ORDER BY id DESC LIMIT ?", [limit]).map { |r| decode_run(r) }
    end

    # A run by id, or the latest run when id is nil.
    def run(id = nil)
      row = if id
              @db.get_first_row("SELECT * FROM runs WHERE id = ?", [Integer(id)])
            else
              @db.get_first_row("SELECT * FROM runs ORDER BY id DESC LIMIT 1")
            end
      raise ConfigError, id ? "no run #{id} in #{path}" : "no runs in #{path} yet (rackbench run first)" unless row

      decode_run(row)
    rescue ArgumentError
      raise ConfigError, "run id must be a number, got #{id.inspect}"
    end

    def cells(run_id)
      @db.execute("SELECT * FROM cells WHERE run_id = ? ORDER BY position", [run_id]).map do |r|
        %w[config result resources].each { |k| r[k] = r.delete("#{k}_json")&.then { |j| JSON.parse(j) } }
        %w[server_command engine_command].each { |k| r[k] = JSON.parse(r[k]) if r[k]&.start_with?("[") }
        r
      end
    end

    def samples(cell_id)
      @db.execute("SELECT * FROM samples WHERE cell_id = ? ORDER BY t_s", [cell_id])
    end

    private

    # What is known of a cell the run did not finish: from its plan position.
    def incomplete_row(run, position, repeats)
      settings = run["settings"].except("scaled", "overrides")
      cell = Plan.new(Suite.new(settings.to_yaml, path: run["suite_path"].to_s)).cells[position - 1]
      server = cell && Servers.fetch(cell.server_name).new(cell.server_config)
      { "position" => position, "label" => server&.label || "cell #{position}", "server" => server&.name,
        "config" => cell&.server_config, "endpoint" => cell&.endpoint&.dig("name"), "path" => cell&.endpoint&.dig("path"),
        "concurrency" => cell&.concurrency, "status" => "incomplete",
        "reason" => "the run stopped after #{repeats.size} repeat(s) of this cell" }
    rescue Error, Psych::Exception
      { "position" => position, "label" => "cell #{position}", "status" => "incomplete",
        "reason" => "the run stopped after #{repeats.size} repeat(s) of this cell" }
    end

    def decode_run(row)
      %w[settings machine pinning].each { |k| row[k] = JSON.parse(row.delete("#{k}_json") || "null") }
      row
    end

    def migrate
      version = schema_version
      MIGRATIONS.drop(version).each_with_index do |sql, i|
        @db.transaction do
          @db.execute_batch(sql)
          @db.execute("PRAGMA user_version = #{version + i + 1}")
        end
      end
    end

    def now = Time.now.utc.iso8601(3)
  end
end
