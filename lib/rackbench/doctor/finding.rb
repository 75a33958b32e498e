# frozen_string_literal: true

module Rackbench
  module Doctor
    # One thing that would make a benchmark misleading: which check found it,
    # how much it matters ("warning": the figures mislead; "note": they hold,
    # but cost or sizing will differ in production), what it is, where it was
    # found (a file and line, a suite key, this machine) and the fix.
    #
    #   Finding.new(check: "database_pool", severity: "warning",
    #               message: "database pool 5 is below puma's 16 threads per process",
    #               where: "config/database.yml:8", fix: "pool: 16 (or RAILS_MAX_THREADS)")
    Finding = Struct.new(:check, :severity, :message, :where, :fix, keyword_init: true) do
      def self.from_h(hash) = new(**hash.transform_keys(&:to_sym).slice(*members))

      def warning? = severity == "warning"
      def to_h = super.transform_keys(&:to_s)
      def to_s = "#{severity}: #{message} (#{where}); fix: #{fix}"
    end
  end
end
