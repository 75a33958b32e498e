# frozen_string_literal: true

module Rackbench
  # The bundled workload apps under apps/: one folder each with a config.ru.
  module Apps
    DIR = File.join(ROOT, "apps")

    def self.names
      Dir[File.join(DIR, "*", "config.ru")].map { |f| File.basename(File.dirname(f)) }.sort
    end
  end
end
