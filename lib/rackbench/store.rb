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
      <<~SQL
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
