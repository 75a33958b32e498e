# frozen_string_literal: true

module Rackbench
  # What one cell sends: one endpoint's Request, or a weighted mix of the
  # suite's endpoints served at once (the native engine only):
  #
  #   mix:
  #     - {endpoint: /, weight: 80}
  #     - {endpoint: "/items/:id", weight: 15}
  #     - {endpoint: create, weight: 5}
  #
  # The Suite adds the mix as one more endpoint, named "mix", whose cells
  # report latency and errors per member as well as overall.
  class Traffic
    MIX_NAME = "mix"

    Member = Struct.new(:request, :weight)

    attr_reader :members

    def initialize(endpoint)
      @endpoint = endpoint
      @members = if endpoint["mix"]
                   endpoint["mix"].map { |m| Member.new(Request.new(m["endpoint"]), m["weight"]) }
                 else
                   [Member.new(Request.new(endpoint), 1)]
                 end
    end

    def mix? = !@endpoint["mix"].nil?
    def requests = members.map(&:request)

    # The path the load's target URL names (the engine's --path options send the rest).
    def path = requests.first.path

    # Whether an engine that sends plain GETs (wrk, ab) can send it. Checks do
    # not count: those engines leave them to the verify step, unchecked under load.
    def plain? = !mix? && requests.first.plain_get?

    # rackbench-load's options: a mix names each member (--endpoint, --weight)
    # and gives its own request options after it. checks: each request's
    # answer check as options (AnswerRule#engine_args), placed with it.
    def engine_args(checks = ->(_request) { [] })
      return requests.first.engine_args + checks.call(requests.first) unless mix?

      members.flat_map do |m|
        args = m.request.engine_args
        args += ["--path", m.request.path] unless args.include?("--path")
        ["--endpoint", m.request.name, "--weight", m.weight.to_s, *args, *checks.call(m.request)]
      end
    end
  end
end
