# frozen_string_literal: true

module Rackbench
  # `rackbench tune`: how should I configure my server? The highest
  # sustainable rate under a latency SLO (Knee), over a server's configs
  # (Space), searched within a wall-time budget (Tuner), answered with its
  # evidence (Answer). Latency is open-loop, from each request's scheduled
  # send time; memory is the PSS of the server tree at the knee.
  module Tune
    autoload :Knee, "rackbench/tune/knee"
    autoload :KneeSample, "rackbench/tune/knee_sample"
    autoload :Space, "rackbench/tune/space"
    autoload :Tuner, "rackbench/tune/tuner"
    autoload :Policy, "rackbench/tune/policy"
    autoload :Separation, "rackbench/tune/separation"
    autoload :Answer, "rackbench/tune/answer"
    autoload :AutoRates, "rackbench/tune/auto_rates"
  end
end
