# frozen_string_literal: true

module Rackbench
  # The text rules every stage shares, each written once: a slug for file,
  # folder and chart names, and words folded to a width.
  #
  #   Words.slug("puma x2:5")                   # => "puma-x2-5"
  #   Words.wrap("Settings: 10 s windows ...")  # folded at 120 columns, later lines indented 4
  #   Words.paragraphs(article_text, width: 99) # each paragraph's whitespace collapsed, then folded
  module Words
    module_function

    # Lower case, every run of other characters one dash, none at the ends.
    def slug(text) = text.to_s.downcase.gsub(/[^a-z0-9]+/, "-").gsub(/\A-|-\z/, "")

    # Text folded at word boundaries to width columns; its leading spaces
    # kept, later lines indented by indent more. A word longer than width
    # stands alone on its line.
    def wrap(text, width: 120, indent: "    ")
      lead = text[/\A */]
      lines = [+lead]
      text.split.each do |word|
        candidate = lines.last.strip.empty? ? "#{lines.last}#{word}" : "#{lines.last} #{word}"
        if candidate.length > width && !lines.last.strip.empty?
          lines << "#{lead}#{indent}#{word}"
        else
          lines[-1] = candidate
        end
      end
      lines.join("\n")
    end

    # Paragraphs (split at blank lines), each one line of words folded to width, a blank line between.
    def paragraphs(text, width:)
      text.to_s.split(/\n\s*\n/).map { |para| wrap(para.gsub(/\s+/, " ").strip, width: width, indent: "") }.join("\n\n")
    end
  end
end
