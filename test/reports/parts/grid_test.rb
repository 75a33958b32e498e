# frozen_string_literal: true

require "test_helper"
require "csv"

module Rackbench
  module Reports
    # The one table writer, in each of its forms.
    class GridTest < Minitest::Test
      def grid
        Grid.new(["Config", "req/s", "CV", "p99 ms"], [["puma x0:16", "2,050", "3.1%", "1.25"], ["thin", "980", nil, "12.50"]],
                 optional: ["CV"])
      end

      def test_text_aligns_the_first_column_left_and_the_others_right_under_a_rule
        assert_equal <<~TEXT, grid.text
          Config      req/s    CV  p99 ms
          ----------  -----  ----  ------
          puma x0:16  2,050  3.1%    1.25
          thin          980         12.50
        TEXT
      end

      def test_text_drops_optional_columns_until_it_fits_its_width_and_no_more
        narrow = grid.text(width: 28)
        assert_equal "Config      req/s  p99 ms", narrow.lines.first.chomp
        assert_equal grid.text, grid.text(width: 32), "a table that fits keeps every column"
        assert_operator grid.text(width: 5).lines.first.length, :>, 5, "only optional columns are dropped"
      end

      def test_a_left_aligned_last_column_leaves_no_trailing_spaces
        text = Grid.new(%w[name status], [%w[a works], %w[bb fails]], left: 2).text
        assert(text.lines.none? { |l| l.chomp.end_with?(" ") }, text)
      end

      def test_markdown_marks_each_columns_alignment_and_escapes_pipes
        md = Grid.new(%w[Kind Name Knobs], [["server", "puma", "a | b"]], align: %i[left left right]).markdown
        assert_equal "| Kind | Name | Knobs |\n| :--- | :--- | ---: |\n| server | puma | a \\| b |\n", md
      end

      def test_padded_markdown_lines_up_for_a_reader_of_the_raw_text
        md = grid.markdown(padded: true)
        assert_equal 1, md.lines.map(&:length).uniq.size, md
        assert_equal "|:-----------|------:|-----:|-------:|", md.lines[1].chomp
      end

      def test_csv_keeps_the_cells_as_given_and_an_absent_one_empty
        rows = CSV.parse(grid.csv, headers: true)
        assert_equal ["thin", "980", nil, "12.50"], rows[1].fields
      end

      def test_html_escapes_its_cells_and_marks_left_aligned_columns
        html = Grid.new(["App", "req/s"], [["<puma>", 1.5]]).html
        assert_equal '<table><thead><tr><th class="left">App</th><th>req/s</th></tr></thead>' \
                     '<tbody><tr><td class="left">&lt;puma&gt;</td><td>1.5</td></tr></tbody></table>', html
      end
    end
  end
end
