# frozen_string_literal: true

# The checks of the size endpoints' answers (catalogue.rb's /bytes,
# /compressible, /file), computed apart from their handlers (workloads/bodies.rb).
# Ruby 2.6 syntax: JRuby 9.3's apps load it too.
module Workloads
  module_function

  # A check that the body is exactly these bytes: its size first (a 1 MB
  # body is not printed when it differs), then where the first difference is.
  def exact_bytes(expected)
    lambda do |body|
      body = body.b
      next ["body is #{body.bytesize} bytes, expected #{expected.bytesize}"] unless body.bytesize == expected.bytesize

      at = (0...body.bytesize).find { |i| body.getbyte(i) != expected.getbyte(i) } if body != expected
      at ? ["body differs from the expected bytes at byte #{at}"] : []
    end
  end

  # What /compressible/:n sends, built apart from Bodies: numbered rows from
  # a fixed head, cut at n bytes.
  def expected_compressible(bytes)
    rows = (1..((bytes / 40) + 1)).map do |i|
      %(<tr class="#{i.odd? ? "odd" : "even"}"><td>Item #{i}</td><td>#{CATEGORIES[i % CATEGORIES.size]}</td></tr>\n)
    end
    "<!DOCTYPE html>\n<table>\n#{rows.join}".byteslice(0, bytes)
  end
end
