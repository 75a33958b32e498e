# frozen_string_literal: true

module Rackbench
  # One key that a suite, or a server, proxy or service entry of it, takes:
  # its type, its bounds, its default and its meaning, declared once. The
  # check (#problem), the default (#default) and the words `rackbench
  # servers --knobs` prints (#describe) all come from the declaration, so
  # they cannot drift apart.
  #
  #   Knob.new("workers", :whole, min: 0, default: 0, doc: "forked worker processes (0 = single mode)")
  #   Knob.new("model", :one_of, values: %w[forked threaded hybrid], doc: "container")   # default: the first
  #   Knob.new("refork_after", :list, items: :whole, min: 1, doc: "requests before a worker becomes the mold")
  #   Knob.new("command", %i[string list], doc: "the command template")
  #   Knob.new("duration_s", :number, above: 0, max: 86_400, unit: "seconds", default: 2, doc: "measured seconds per cell")
  #
  #   knob.problem(-1)   # => "must be a whole number >= 0"; nil when the value fits (nil always does)
  #   knob.describe      # => "forked worker processes (0 = single mode); a whole number >= 0, default 0"
  class Knob
    TYPES = %i[whole number boolean string list mapping one_of any].freeze
    NOUNS = { whole: ["a whole number", "whole numbers"], number: ["a finite number", "finite numbers"],
              string: ["a string", "strings"],
              list: ["a list", "lists"], mapping: ["a mapping", "mappings"], boolean: ["true or false", "true or false"],
              any: %w[anything anything] }.freeze

    attr_reader :name, :types, :doc, :min, :max, :above, :unit, :values, :items

    # types: one of TYPES or a list of them (any of which fits). min/max:
    # inclusive bounds of a number (of a list's elements with items:), above:
    # an exclusive lower one; unit: what a number counts ("seconds"). values:
    # the choices of :one_of, the first being the default unless default: says
    # otherwise.
    def initialize(name, types, doc: "", default: nil, min: nil, max: nil, above: nil, unit: nil, values: nil, items: nil)
      @name = name.to_s
      @types = Array(types)
      unknown = @types - TYPES
      raise ArgumentError, "knob #{@name}: unknown type #{unknown.first.inspect}" unless unknown.empty?

      @doc = doc
      @default = default
      @min = min
      @max = max
      @above = above
      @unit = unit
      @values = values
      @items = items
    end

    def default = @default.nil? && @values ? @values.first : @default

    # nil when value fits the knob (nil, meaning "not given", always does);
    # else what it must be: "must be a whole number >= 0".
    def problem(value)
      return nil if value.nil? || types.any? { |type| fits?(type, value) }

      "must be #{expectation}"
    end

    # "a whole number >= 0", "one of forked, threaded, hybrid", "a string or a list".
    def expectation = types.map { |type| phrase(type) }.join(" or ")

    # The doc, what it takes and its default, for `rackbench servers --knobs`.
    def describe
      given = default.nil? ? "" : ", default #{default.inspect}"
      [doc, "#{expectation}#{given}"].reject(&:empty?).join("; ")
    end

    private

    def fits?(type, value)
      case type
      when :whole, :number then number?(type, value) && within?(value)
      when :boolean then [true, false].include?(value)
      when :string then value.is_a?(String)
      when :list then value.is_a?(Array) && (items.nil? || value.all? { |v| number?(items, v) && within?(v) })
      when :mapping then value.is_a?(Hash)
      when :one_of then values.include?(value)
      else true
      end
    end

    def number?(type, value)
      type == :whole ? value.is_a?(Integer) : value.is_a?(Numeric) && value.to_f.finite?
    end

    def within?(value) = (min.nil? || value >= min) && (max.nil? || value <= max) && (above.nil? || value > above)

    def phrase(type)
      return "one of #{values.join(", ")}" if type == :one_of
      return "#{NOUNS[:list].first} of #{NOUNS.fetch(items).last}#{bounds}" if type == :list && items

      return "#{NOUNS[:number].first}#{" of #{unit}" if unit}#{number_bounds}" if type == :number

      "#{NOUNS.fetch(type).first}#{bounds if type == :whole}"
    end

    # "from 1 to 256", "> 0", ">= 0", "<= 10"
    def bounds
      if min && max then " from #{min} to #{max}"
      elsif min == 1 && (types.include?(:whole) || items == :whole) then " > 0"
      elsif min then " >= #{min}"
      elsif max then " <= #{max}"
      else ""
      end
    end

    # "above 0 up to 86400", "from 0 up to 86400", ">= 0", "above 0"
    def number_bounds
      lower = if above then "above #{above}"
              elsif min then max ? "from #{min}" : ">= #{min}"
              end
      upper = max && (lower ? "up to #{max}" : "<= #{max}")
      [lower, upper].compact.map { |part| " #{part}" }.join
    end
  end
end
