# frozen_string_literal: true

# Loaded into puma on JRuby (jruby -r this puma ...). About half of the JVMs
# started on Debian's JRuby 9.3.9 + Java 17 get a puma whose Java HTTP parser
# fails every request with ArrayIndexOutOfBoundsException (puma 5.6.9, 6.0.2,
# 6.4.3 and 6.6.1 all do). Puma logs it and keeps accepting, so readiness
# would wait to its deadline; this makes the process exit on the first such
# request, and the cell records the parser's error at once.
require "puma"
require "puma/server"

Puma::Server.prepend(Module.new do
  def process_client(client)
    super
  rescue Java::JavaLang::ArrayIndexOutOfBoundsException => e
    warn "rackbench: puma's HTTP parser failed on JRuby (#{e.message}); this JVM cannot serve, exiting"
    exit!(70)
  end
end)
