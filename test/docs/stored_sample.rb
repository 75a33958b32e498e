# frozen_string_literal: true

module Rackbench
  # For a docs test whose class names its page writer as Sample (a
  # rakelib/docs class with STORE_DIR): the writer over a copy of the stored
  # run, since opening a store migrates it and the committed one must stay
  # as it is.
  module StoredSample
    def sample
      FileUtils.cp(File.join(ROOT, self.class::Sample::STORE_DIR, Store::FILE), tmpdir)
      @store = Store.new(tmpdir)
      self.class::Sample.new(@store)
    end

    def teardown
      @store&.close
      super
    end
  end
end
