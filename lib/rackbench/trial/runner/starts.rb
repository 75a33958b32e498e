# frozen_string_literal: true

module Rackbench
  class Runner
    # The run's server starts (epochs), in order, until every block is
    # settled or has the starts it needs, or the budget is spent:
    #
    #   for each start:
    #     for each unit (a level: its configs side by side; sequential: a server config):
    #       the deployments its open blocks do not need retired
    #       for each block (one endpoint; its cells are the configs to compare):
    #         its configs deployed side by side, in the order of the start's first round
    #         rounds until each cell has its windows up to this start (Repeats)
    #         ratio: duet, one ratio window of the block's configs at once (Repeats#measure_ratio);
    #           a block whose servers kept the CPU busy in those (or not yet known) takes one
    #           window in turns a start in the first stage (its figures), and after it ratio
    #           windows only (its verdict reads them; its figures keep the first stage's windows)
    #         after the first stage: the starts it needs decided (RepeatPolicy), or,
    #         sequential, the cells it no longer needs finished
    #         after its last start: its cells finished (Recorder)
    #     every deployment retired
    #   then every cell still open finished.
    #
    # Created by the Runner once the services, hosts and setup are up.
    class Starts
      RATIO_STAGE_WINDOWS = 1 # windows in turns a first-stage start of a block its ratio windows decide

      def initialize(plan, schedule:, policy:, budget:, recorder:, deployments:, repeats:, resumer: nil)
        @plan = plan
        @schedule = schedule
        @policy = policy
        @budget = budget
        @recorder = recorder
        @deployments = deployments
        @repeats = repeats
        @resumer = resumer
        @starts_needed = {} # by block: known after the first stage
        @rounds = Hash.new(0) # by block: its rounds so far
        @epoch_first_round = {} # by [block, epoch]
        @ratio_only = {} # by block: from the first look on, ratio windows only (#ratio_only?)
        @windows_in = {} # by [block, epoch]: its windows in turns, decided at that start (#windows_in_start)
      end

      def run
        epoch = 0
        run_epoch(epoch) while (epoch += 1) <= last_epoch && @budget.allows?(epoch)
        @recorder.finish_all
      end

      # Whether any block took the first stage's one window in turns a start (#ratio_stage?): the run stores it,
      # so its report says so.
      def ratio_stage_taken? = @windows_in.any? { |_, windows| windows == RATIO_STAGE_WINDOWS && windows != @policy.windows }

      private

      def last_epoch = @policy.sequential? ? @policy.max_starts : [@policy.starts, *@starts_needed.values].max

      def run_epoch(epoch)
        units.each do |blocks|
          blocks = blocks.select { |block| wants_start?(block, epoch) }
          next if blocks.empty?

          @deployments.retire_except(blocks.flat_map { |block| active(block) }.map { |c| Deployments.key(c) }.uniq)
          blocks.each { |block| run_block(block, epoch) }
        end
        @deployments.retire_all
      end

      # Interleaved and random: one unit per level, every config of the level
      # deployed side by side. Sequential: one unit per server config, each cell
      # a block of its own.
      def units
        return @schedule.levels(@plan.cells).map(&:last) unless @schedule.sequential?

        @plan.groups.map do |group|
          group.cells.map { |c| Schedule::Block.new(concurrency: c.concurrency, endpoint: c.endpoint["name"], cells: [c]) }
        end
      end

      # Rounds until each cell has its windows up to this start (all of them in
      # a fresh run; what is missing in a resumed one). After the first stage
      # the block's number of starts is decided; the last finishes its cells.
      def run_block(block, epoch)
        deploy_side_by_side(block, epoch)
        fill_rounds(block, (1..epoch).sum { |e| windows_in_start(block, e) }, epoch)
        ratio_round(block, epoch)
        if @policy.sequential? then settle(block) if epoch >= @policy.starts
        elsif epoch == @policy.starts then decide_starts(block)
        end
        finish(active(block)) if epoch >= starts_for(block)
      end

      # Every config of the block is started before any of them is measured,
      # in the order of the start's first round: no config is measured while
      # another one boots, or measured alone before its neighbours exist.
      def deploy_side_by_side(block, epoch)
        cells = active(block)
        return if cells.size < 2 || @schedule.sequential?

        @schedule.round_order(cells, rounds_done(block) + 1, turn: Schedule.turn(epoch: epoch, round_in_epoch: 0))
                 .each { |cell| @deployments.live_for(cell, epoch) }
      end

      # Rounds of the block's cells short of `due` repeats until none is;
      # each round adds a repeat to each of them, or fails it (done).
      def fill_rounds(block, due, epoch)
        while (short = active(block).select { |c| @recorder.windows(c).size < due }).any?
          run_round(block, short, epoch)
        end
      end

      # The windows in turns each config of the block takes in start `epoch`,
      # decided when that start is first measured (a later start's
      # knowledge does not change an earlier start's number): none when it
      # measures ratio windows only; one in a first-stage start of a block
      # decided by its ratio windows (#ratio_stage?); else the policy's.
      def windows_in_start(block, epoch)
        @windows_in[[block_key(block), epoch]] ||=
          if ratio_only?(block, epoch) then 0
          elsif ratio_stage?(block, epoch) then RATIO_STAGE_WINDOWS
          else @policy.windows_in_start(epoch)
          end
      end

      # Whether start `epoch` is a first-stage start of a block whose
      # verdict its ratio windows will decide: a sequential run's block of
      # two configs or more, its ratio windows so far busy or none yet
      # (DuetBusy), its looks its own (not a seed's claims). Its windows in
      # turns only give its figures, which one a start over the stage's
      # starts gives as well as two (the start is the unit of noise): the
      # first stage costs three windows a cell a start instead of five.
      def ratio_stage?(block, epoch)
        return false unless ratio_decides? && epoch <= @policy.starts

        cells = active(block)
        cells.size >= 2 && cells.all? { |c| duet_busy?(c, unknown: true) }
      end

      def ratio_decides? = @repeats.ratio? && @policy.sequential? && !@policy.questions?

      # Whether the cell's server was busy in its ratio windows so far (DuetBusy); `unknown` when none says.
      def duet_busy?(cell, unknown: false)
        Measurement::DuetBusy.busy?(@recorder.repeats(cell).select(&:ratio?), unknown: unknown)
      end

      # Whether start `epoch` of the block measures ratio windows only: a
      # sequential run's start after the first stage, once the first stage's
      # ratio windows showed every config's server busy (DuetBusy), decided
      # once for the block at its first look. Not where the looks follow
      # given questions (a seed's claims): a claim may compare cells of
      # different blocks, which only windows in turns can.
      def ratio_only?(block, epoch)
        return false unless ratio_decides? && epoch > @policy.starts

        @ratio_only.fetch(block_key(block)) do |key|
          cells = active(block)
          @ratio_only[key] = cells.size >= 2 &&
                             cells.all? { |c| duet_busy?(c) }
        end
      end

      # ratio: duet: after the start's windows in turns, one window of the
      # block's open configs loaded at once, in a round of its own. A config
      # whose ratio windows show its server idle takes no more part
      # (DuetBusy: a ratio with it is not one of costs, and Comparison reads
      # its comparisons in turns); the others go on while two are left, so
      # a block of three whose slowest idles still has its leader and
      # runner-up compared in duet windows.
      def ratio_round(block, epoch)
        return unless @repeats.ratio? && !@schedule.sequential?

        cells = active(block).select { |c| duet_busy?(c, unknown: true) }
        return if cells.size < 2

        key = block_key(block)
        round = (@rounds[key] = rounds_done(block) + 1)
        @repeats.measure_ratio(@schedule.round_order(cells, round, turn: Schedule.turn(epoch: epoch, round_in_epoch: 0)),
                               round, epoch)
      end

      def run_round(block, cells, epoch)
        key = block_key(block)
        round = (@rounds[key] = rounds_done(block) + 1)
        first = (@epoch_first_round[[key, epoch]] ||= round)
        turn = Schedule.turn(epoch: epoch, round_in_epoch: round - first)
        @repeats.measure(@schedule.round_order(cells, round, turn: turn), round, epoch)
      end

      # The block's rounds so far; a resumed block's go on from its cells' most repeats (Resumer).
      def rounds_done(block)
        key = block_key(block)
        @rounds[key] = @resumer.round(block) if @resumer && !@rounds.key?(key)
        @rounds[key]
      end

      # Sequential: the block's question looked at after this start; the cells
      # it no longer needs (all, once settled) are finished. A seed run's
      # questions (its claims) may compare cells of other blocks: every cell
      # that has not failed is looked at.
      def settle(block)
        others = @plan.cells.reject { |c| @recorder.failed?(c) }
        finish(@policy.settled_cells(active(block), ->(cell) { @recorder.repeats(cell) }, others: others))
        finish(active(block).select { |c| @recorder.load_s(c) >= @policy.max_cell_s })
        finish(active(block)) if active(block).size < 2 && @ratio_only[block_key(block)] # nothing left to pair
      end

      # Stein's decision, once per block, from the first stage's starts.
      def decide_starts(block)
        samples = active(block).map do |c|
          StartSample.of(@recorder.windows(c), start_of: :deployment.to_proc, value_of: :good_requests_per_s.to_proc)
        end
        @starts_needed[block_key(block)] = @policy.starts_needed(samples)
      end

      def finish(cells) = cells.each { |c| @recorder.finish(c, trial: @deployments.trial_of(c)) }

      def block_key(block) = block.cells.map(&:index)

      def starts_for(block) = @starts_needed.fetch(block_key(block)) { @policy.sequential? ? @policy.max_starts : @policy.starts }

      def wants_start?(block, epoch) = active(block).any? && epoch <= starts_for(block)

      def active(block) = block.cells.reject { |c| @recorder.done?(c) }
    end
  end
end
