# frozen_string_literal: true

module Rackbench
  class Result
    # One warning of the native engine as data: its code, its figures by name
    # and the sentence it printed (ext/rackbench_load/README.md lists the codes).
    #
    #   warning = result.engine_warnings.first
    #   warning.code                 # => "shortfall"
    #   warning.figures["served"]    # => 23
    #   warning.text                 # => "open loop served 23 of the 238 requests due ..."
    EngineWarning = Struct.new(:code, :figures, :text, keyword_init: true)
  end
end
