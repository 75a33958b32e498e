# frozen_string_literal: true

# 7: each window's histograms and series compact (Store::Compact):
# histograms as HdrHistogram's V2 compressed form, series column by column,
# a fraction of their JSON. Windows stored before are converted, each only
# when it reads back equal to what it was; the reader takes the old JSON
# too, so a window left as it was still reads. Down: back to plain JSON.
Sequel.migration do
  up { Rackbench::Store::Compact.convert_repeats(self, :pack) }
  down { Rackbench::Store::Compact.convert_repeats(self, :unpack) }
end
