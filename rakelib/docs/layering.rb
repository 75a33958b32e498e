# frozen_string_literal: true

require "prism"

module Rackbench
  module Docs
    # Which folder of lib/rackbench names which, read from the code's
    # constant references (autoload hides them from a reader): every file
    # parsed with Prism, every constant it defines found by its nesting,
    # every constant it names resolved as Ruby would (innermost nesting
    # first) against those. A folder is a stage: lib/rackbench/reports/ and
    # reports.rb are "reports"; the other files of the root (registry.rb,
    # version.rb, words.rb) are "core".
    #
    # The stages stand on RUNGS, lowest first: a stage may name its own rung
    # and those below, never one above (results/ naming a report or a
    # command, trial/ naming cli/), as packwerk keeps a large Rails app's
    # packages apart. test/docs/layering_test.rb fails on such a reference;
    # `rake docs:layering` draws the picture in doc/architecture.md.
    #
    #   layering = Layering.new("lib")
    #   layering.edges    # => {"cli" => {"reports" => ["cli/report.rb:30 Reports", ...]}, ...}
    #   layering.upward   # => ["trial/trial.rb:12 CLI::Run", ...]: each reference to a higher rung
    #   layering.mermaid  # the picture: an arrow from each stage to each it names
    class Layering
      RUNGS = [
        %w[core system],                                               # the OS border and the core
        %w[suite targets engines hosts trial probe store results],     # measure, keep, decide
        %w[reports charts article tune doctor init],                   # render, and what commands build on them
        %w[cli]                                                        # the commands
      ].freeze
      STAGES = RUNGS.flatten.freeze

      # References to a higher rung that are known and owed a fix (packwerk's
      # package_todo): "file constant" => why it is still there. The test
      # fails on any other, and on an entry no longer needed.
      TODO = {}.freeze

      MARKERS = ["<!-- layering: rake docs:layering writes this picture -->", "<!-- layering end -->"].freeze

      def self.rung(stage) = RUNGS.index { |r| r.include?(stage) }

      # "reports/parts/grid.rb" and "reports.rb" => "reports"; "registry.rb" => "core".
      def self.stage_of(relative)
        first = relative.split("/").first.delete_suffix(".rb")
        relative.include?("/") || STAGES.include?(first) ? first : "core"
      end

      def initialize(lib)
        @root = File.join(lib, "rackbench")
        @trees = Dir[File.join(@root, "**", "*.rb")].to_h { |f| [f, Prism.parse_file(f).value] }
      end

      # {"Rackbench::Reports::Grid" => "reports", ...}: where each constant is defined first.
      def definitions
        @definitions ||= @trees.each_with_object({}) do |(file, tree), defs|
          walk(tree, [], lambda do |node, nesting|
            name = defined_name(node)
            defs[(nesting + [name]).join("::")] ||= stage(file) if name
          end)
          defs.delete("Rackbench")
        end
      end

      # {from => {to => ["path:line Name", ...]}}: each stage's references to the others.
      def edges
        @edges ||= @trees.each_with_object(Hash.new { |h, k| h[k] = Hash.new { |i, j| i[j] = [] } }) do |(file, tree), out|
          from = stage(file)
          walk(tree, [], lambda do |node, nesting|
            to = reference(node, nesting)
            out[from][to] << "#{relative(file)}:#{node.location.start_line} #{node.slice}" if to && to != from
          end)
        end
      end

      # Every reference from a stage to one on a higher rung, TODO's left out.
      def upward = all_upward.reject { |place| TODO.key?(todo_key(place)) }

      # The TODO entries no reference needs any more.
      def stale_todo = TODO.keys - all_upward.map { |place| todo_key(place) }

      # A Mermaid flowchart, rung by rung, the lowest at the bottom: an arrow
      # from each stage to each it names (how many references is in #edges;
      # left out so the page changes only when a stage starts or stops naming one).
      def mermaid
        rungs = RUNGS.each_with_index.map { |stages, i| "  subgraph rung#{i} [\" \"]\n    #{stages.join(" & ")}\n  end" }
        arrows = edges.sort.flat_map { |from, tos| tos.keys.sort.map { |to| "  #{from} --> #{to}" } }
        "```mermaid\nflowchart BT\n#{rungs.join("\n")}\n#{arrows.join("\n")}\n```\n"
      end

      # The page with the picture between its MARKERS replaced by today's.
      def self.write_into(page, picture)
        start, stop = MARKERS.map { |m| page.index(m) or raise "doc/architecture.md lacks the marker #{m}" }
        page[0, start + MARKERS[0].size] + "\n#{picture}" + page[stop..]
      end

      private

      def all_upward
        edges.flat_map do |from, tos|
          tos.select { |to, _| self.class.rung(to) > self.class.rung(from) }.values.flatten
        end
      end

      # "results/verdicts.rb:12 Reports::Grid" => "results/verdicts.rb Reports::Grid"
      def todo_key(place) = place.sub(/:\d+ /, " ")

      def stage(file) = self.class.stage_of(relative(file))
      def relative(file) = file.delete_prefix("#{@root}/")

      # Calls visit with every node and the names of the modules and classes
      # around it; a constant path (A::B::C) is visited whole, not its parts again.
      def walk(node, nesting, visit)
        visit.call(node, nesting)
        return if node.is_a?(Prism::ConstantPathNode)

        if node.is_a?(Prism::ModuleNode) || node.is_a?(Prism::ClassNode)
          walk(node.superclass, nesting, visit) if node.is_a?(Prism::ClassNode) && node.superclass
          node.body && walk(node.body, nesting + [path_name(node.constant_path)], visit)
          return
        end
        node.compact_child_nodes.each { |child| walk(child, nesting, visit) }
      end

      def defined_name(node)
        case node
        when Prism::ModuleNode, Prism::ClassNode then path_name(node.constant_path)
        when Prism::ConstantWriteNode then node.name.to_s
        end
      end

      # The stage a constant reference resolves to; nil for one outside lib/rackbench or not a reference.
      def reference(node, nesting)
        name = case node
               when Prism::ConstantReadNode then node.name.to_s
               when Prism::ConstantPathNode then path_name(node)
               end
        return nil unless name

        found = candidates(name, nesting).find { |full| definitions.key?(full) }
        found && definitions[found]
      end

      # Innermost nesting first, and each shorter path (Tune::Knee::TRIES, then Tune::Knee, then Tune).
      def candidates(name, nesting)
        scopes = name.start_with?("::") ? [] : nesting.flat_map { |n| n.split("::") }
        parts = name.delete_prefix("::").split("::")
        parts.size.downto(1).flat_map do |length|
          scopes.size.downto(0).map { |i| [*scopes.first(i), *parts.first(length)].join("::") }
        end
      end

      def path_name(node)
        case node
        when Prism::ConstantReadNode then node.name.to_s
        when Prism::ConstantPathNode then "#{path_name(node.parent) if node.parent}::#{node.name}".delete_prefix("::")
        else node.slice
        end
      end
    end
  end
end
