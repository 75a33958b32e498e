# frozen_string_literal: true

module Rackbench
  module Servers
    # A compiled Java class (the JVM's class file format, JVMS chapter 4),
    # read far enough to list its methods and to rename one: the constant
    # pool, the class and superclass names, and each method's access flags,
    # name and descriptor. Renaming appends a new name to the constant pool
    # and points the method at it; every other byte stays as it was.
    # Written in Ruby 2.6, as jruby/torquebox_patch.rb loads it into JRuby 9.3.
    #
    #   cf = JavaClassFile.new(File.binread("Foo.class"))
    #   cf.method_infos.map { |m| [m.name, m.descriptor, m.final?] }
    #   File.binwrite("Foo.class", cf.rename_methods([["keys", "()Lorg/jruby/RubyArray;"]]) { |n| "#{n}$x" })
    class JavaClassFile
      MAGIC = 0xCAFEBABE
      ACC_FINAL = 0x0010
      ACC_PRIVATE = 0x0002
      ACC_STATIC = 0x0008
      UTF8 = 1
      CLASS = 7
      # Bytes after the tag of each constant kind other than Utf8; Long and
      # Double take two slots of the pool.
      CONSTANT_SIZE = { 3 => 4, 4 => 4, 5 => 8, 6 => 8, 7 => 2, 8 => 2, 9 => 4, 10 => 4, 11 => 4, 12 => 4,
                        15 => 3, 16 => 2, 17 => 4, 18 => 4, 19 => 2, 20 => 2 }.freeze

      # One method_info: where its name index sits in the file, to rewrite it.
      MethodInfo = Struct.new(:access_flags, :name, :descriptor, :name_index_offset) do
        def final?
          access_flags.anybits?(ACC_FINAL)
        end

        # A method that a subclass's method of the same name and descriptor would override.
        def overridable?
          access_flags.nobits?(ACC_PRIVATE | ACC_STATIC)
        end
      end

      class Malformed < StandardError; end

      attr_reader :name, :super_name, :method_infos

      def initialize(bytes)
        @bytes = bytes.b
        @pos = 0
        raise Malformed, "not a class file (no 0xCAFEBABE)" unless u4 == MAGIC

        skip(4) # minor, major version
        read_constant_pool
        @access_flags = u2
        @name = class_name(u2)
        super_index = u2
        @super_name = super_index.zero? ? nil : class_name(super_index)
        interfaces = u2
        skip(2 * interfaces)
        skip_members # fields
        @method_infos = read_methods
      end

      # The class file with each method whose [name, descriptor] is in
      # `signatures` renamed to the block's answer for its name.
      def rename_methods(signatures)
        renamed = method_infos.select { |m| signatures.include?([m.name, m.descriptor]) }
        return @bytes.dup if renamed.empty?

        out = @bytes.dup
        new_names = renamed.map { |m| yield(m.name) }.uniq
        index_of = new_names.each_with_index.to_h { |n, i| [n, @pool_count + i] }
        renamed.each { |m| out[m.name_index_offset, 2] = [index_of.fetch(yield(m.name))].pack("n") }
        entries = new_names.map { |n| [UTF8, n.bytesize].pack("Cn") + n.b }.join
        out[@pool_end, 0] = entries
        out[@pool_count_offset, 2] = [@pool_count + new_names.size].pack("n")
        out
      end

      private

      # The readers below index the bytes in place (getbyte, no substring per
      # field): bin/setup's rename parses every class of TorqueBox's jars, about
      # 3,400, in a cold JRuby.
      def u1
        ensure_bytes(1)
        @pos += 1
        @bytes.getbyte(@pos - 1)
      end

      def u2
        ensure_bytes(2)
        @pos += 2
        (@bytes.getbyte(@pos - 2) << 8) | @bytes.getbyte(@pos - 1)
      end

      def u4
        (u2 << 16) | u2
      end

      def skip(count)
        ensure_bytes(count)
        @pos += count
      end

      def ensure_bytes(count)
        return if @pos + count <= @bytes.bytesize

        raise Malformed, "class file ends at byte #{@bytes.bytesize}, #{count} more expected"
      end

      # Each Utf8 constant's [offset, length], read as a string when a name needs it.
      def read_constant_pool
        @pool_count_offset = @pos
        @pool_count = u2
        @utf8 = {}
        @class_refs = {}
        index = 1
        while index < @pool_count
          tag = u1
          if tag == UTF8
            length = u2
            @utf8[index] = [@pos, length]
            skip(length)
          elsif tag == CLASS
            @class_refs[index] = u2
          else
            skip(CONSTANT_SIZE.fetch(tag) { raise Malformed, "unknown constant tag #{tag} at pool index #{index}" })
            index += 1 if tag == 5 || tag == 6
          end
          index += 1
        end
        @pool_end = @pos
      end

      def class_name(index)
        utf8(@class_refs.fetch(index) { raise Malformed, "constant #{index} is not a class" })
      end

      def utf8(index)
        offset, length = @utf8.fetch(index) { raise Malformed, "constant #{index} is not a Utf8 name" }
        @bytes.byteslice(offset, length).force_encoding(Encoding::UTF_8)
      end

      def skip_members
        u2.times do
          skip(6)
          skip_attributes
        end
      end

      def skip_attributes
        u2.times do
          skip(2)
          skip(u4)
        end
      end

      def read_methods
        Array.new(u2) do
          access = u2
          name_offset = @pos
          name = utf8(u2)
          descriptor = utf8(u2)
          skip_attributes
          MethodInfo.new(access, name, descriptor, name_offset)
        end
      end
    end
  end
end
