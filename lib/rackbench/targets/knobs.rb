# frozen_string_literal: true

module Rackbench
  # The knobs of an adapter (server, proxy, service), declared as Knobs:
  # included by each adapter family's base class, which says in
  # #knob_owner how its errors name it. Subclasses inherit their parent's
  # knobs (apache_passenger takes passenger's).
  #
  #   class Puma < Base
  #     knob :workers, :whole, min: 0, default: 0, doc: "forked worker processes (0 = single mode)"
  #   end
  #   Puma.knobs                  # => ["workers", ...]
  #   Puma.knob_schema["workers"] # => Knob
  #   puma.setting("workers")     # => the entry's value, or 0; ConfigError when it does not fit
  #   puma.reject_unknown_keys(Puma.knobs + COMMON_KEYS)  # ConfigError naming the first key not taken
  module Knobs
    def self.included(base) = base.extend(ClassMethods)

    # Declarations, on the adapter class.
    module ClassMethods
      def knob(name, types, **options)
        own_knobs[name.to_s] = Knob.new(name, types, **options)
      end

      # {name => Knob}, the parent's first.
      def knob_schema
        inherited = superclass.respond_to?(:knob_schema) ? superclass.knob_schema : {}
        inherited.merge(own_knobs)
      end

      def knobs = knob_schema.keys

      private

      def own_knobs = @own_knobs ||= {}
    end

    # The entry's value of a declared knob, or the knob's default; a
    # ConfigError naming the adapter, the key and the value when it does
    # not fit.
    def setting(key)
      knob = self.class.knob_schema.fetch(key.to_s)
      value = config[knob.name]
      problem = knob.problem(value)
      raise config_error(knob.name, "#{knob.name.inspect} #{problem}, got #{value.inspect}") if problem

      value.nil? ? knob.default : value
    end

    # The first key of the entry that is not among takes (the family's keys
    # and the adapter's knobs, in the order the error lists them).
    def reject_unknown_keys(takes)
      unknown = config.keys - takes
      return if unknown.empty?

      raise config_error(unknown.first, "unknown key #{unknown.first.inspect}; it takes #{takes.uniq.join(", ")}")
    end

    # A ConfigError about key, in the adapter's words ("server puma: ..."), with the key as a field.
    def config_error(key, text) = ConfigError.new("#{knob_owner}: #{text}", key: key)

    # Every declared knob's value checked (#validate! calls it).
    def validate_settings
      self.class.knobs.each { |key| setting(key) }
    end
  end
end
