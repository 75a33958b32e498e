# frozen_string_literal: true

require "test_helper"
require "rackbench/targets/servers/jruby/class_file"

module Rackbench
  module Servers
    # A class file built byte by byte (the JVMS 4.1 layout): a constant pool
    # with a Long (two slots), one interface, one field with an attribute and
    # two methods, one of them final and one private.
    class JavaClassFileTest < Minitest::Test
      def utf8(text) = [1, text.bytesize].pack("Cn") + text
      def u2(*values) = values.pack("n*")

      # Pool: 1 "Sub", 2 Class(1), 3 "Base", 4 Class(3), 5 Long (5 and 6), 7 "Iface", 8 Class(7),
      # 9 "keys", 10 "()V", 11 "helper", 12 "count", 13 "I", 14 "ConstantValue"
      def class_bytes(keys_flags: 0x0001)
        pool = [utf8("Sub"), [7, 1].pack("Cn"), utf8("Base"), [7, 3].pack("Cn"), [5, 0, 42].pack("CNN"),
                utf8("Iface"), [7, 7].pack("Cn"), utf8("keys"), utf8("()V"), utf8("helper"), utf8("count"),
                utf8("I"), utf8("ConstantValue")]
        field = u2(0x0002, 12, 13, 1) + u2(14) + [2].pack("N") + u2(5)
        keys = u2(keys_flags, 9, 10, 0)
        helper = "#{u2(0x0002, 11, 10, 1)}#{u2(14)}#{[3].pack("N")}abc"
        [0xCAFEBABE].pack("N") + u2(0, 52) + u2(15) + pool.join + u2(0x0021, 2, 4) + u2(1, 8) +
          u2(1) + field + u2(2) + keys + helper + u2(0)
      end

      def test_it_reads_the_class_its_superclass_and_each_methods_flags_name_and_descriptor
        klass = JavaClassFile.new(class_bytes(keys_flags: 0x0011))
        assert_equal %w[Sub Base], [klass.name, klass.super_name]
        assert_equal([["keys", "()V", true, true], ["helper", "()V", false, false]],
                     klass.method_infos.map { |m| [m.name, m.descriptor, m.final?, m.overridable?] })
      end

      def test_renaming_a_method_appends_its_new_name_and_leaves_the_rest_as_it_was
        original = class_bytes
        renamed = JavaClassFile.new(original).rename_methods([%w[keys ()V]]) { |name| "#{name}$x" }
        again = JavaClassFile.new(renamed)
        assert_equal([["keys$x", "()V"], ["helper", "()V"]], again.method_infos.map { |m| [m.name, m.descriptor] })
        assert_equal original.bytesize + 3 + "keys$x".bytesize, renamed.bytesize
        assert_equal 16, renamed.byteslice(8, 2).unpack1("n"), "one more constant in the pool"
        assert_equal original.byteslice(-20, 20), renamed.byteslice(-20, 20), "the methods' other bytes are untouched"
      end

      def test_a_method_not_named_is_not_renamed
        original = class_bytes
        assert_equal original, JavaClassFile.new(original).rename_methods([%w[keys (I)V]]) { |name| "#{name}$x" }
      end

      def test_bytes_that_are_not_a_class_file_are_refused_with_the_reason
        error = assert_raises(JavaClassFile::Malformed) { JavaClassFile.new("PK\x03\x04 a zip") }
        assert_match(/not a class file/, error.message)
        error = assert_raises(JavaClassFile::Malformed) { JavaClassFile.new(class_bytes.byteslice(0, 60)) }
        assert_match(/ends at byte 60/, error.message)
      end
    end
  end
end
