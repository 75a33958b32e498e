# frozen_string_literal: true

require "etc"
require "fileutils"
require "json"
require "shellwords"
require "tmpdir"

module Rackbench
  module Hosts
    # A run's folder on a server host: nothing of rackbench's machine is
    # assumed to be there. Opened by Fleet for each server host when the run
    # connects, it holds what rackbench ships (the files it generated for a
    # deployment: server and proxy configs, explain.ru; the probe's code with
    # explain: true; the app's folder with app_sync: true), at the paths a
    # PathMap gives, and what the server writes there (probe records, its own
    # logs), fetched back into the run's folder here. Removed when the run
    # ends; a folder whose rackbench is gone (killed, or its machine was) is
    # removed by the next run that connects from the same machine.
    #
    #   folder = RunFolder.new(conn, local_dir: run_dir, apps: ["/src/shop/config.ru"], explain: true).open
    #   folder.root                   # => "/home/bench/.cache/rackbench/runs/build1-4242-7"
    #   folder.map.call(local_path)   # the path a server on the host is given
    #   folder.ship(deployment_dir)   # its generated files, rewritten by the map
    #   folder.fetch(deployment_dir)  # what the server wrote there, copied back
    #   folder.close
    class RunFolder
      DEFAULT_BASE = "~/.cache/rackbench/runs"
      PROBE_CODE = File.join(ROOT, "lib", "rackbench", "probe")
      BUNDLED_APPS = File.join(ROOT, "apps")
      OWNER_FILE = "rackbench-owner.json"
      # Files rackbench's own children write here (their logs come back over
      # ssh): never shipped.
      LOCAL_ONLY = /\.(log|out)\z/

      attr_reader :root, :map, :removed_stale

      # apps: the config.ru paths of the server configs that run on this host,
      # copied there when app_sync; explain: the probe's code is copied too.
      def initialize(connection, local_dir:, apps: [], app_sync: false, explain: false)
        @conn = connection
        @local_dir = File.expand_path(local_dir)
        @apps = apps
        @app_sync = app_sync
        @explain = explain
        @removed_stale = []
      end

      def open
        base = @conn.capture("mkdir -p #{base_dir} && cd #{base_dir} && pwd").strip
        @removed_stale = remove_stale(base)
        @root = "#{base}/#{Etc.uname[:nodename]}-#{Process.pid}-#{File.basename(@local_dir)}"
        @conn.capture("rm -rf #{q(@root)} && mkdir -p #{q(@root)} && printf %s #{q(JSON.generate(self.class.owner))} " \
                      "> #{q("#{@root}/#{OWNER_FILE}")}")
        @map = PathMap.new(@local_dir => @root)
        copy_probe_code if @explain
        sync_apps if @app_sync
        self
      end

      # Copies the files under local_dir (a folder of the run) to its place on
      # the host, each file's text rewritten by the map: rackbench's own logs stay.
      def ship(local_dir)
        Dir.mktmpdir("rb-ship-") do |staging|
          files = Dir.glob("**/*", File::FNM_DOTMATCH, base: local_dir).reject { |f| f.match?(LOCAL_ONLY) || File.basename(f) == "." }
          files.each { |f| stage(File.join(local_dir, f), File.join(staging, f)) }
          @conn.push(Dir.children(staging).map { |c| File.join(staging, c) }, map.call(File.expand_path(local_dir)))
        end
      end

      # What the server wrote in local_dir's place on the host, copied over local_dir.
      def fetch(local_dir) = @conn.pull(map.call(File.expand_path(local_dir)), local_dir)

      def close
        @conn.capture("rm -rf #{q(@root)}") if @root
        @root = nil
      end

      # Who made a folder: this machine and the rackbench process (its pid and start).
      def self.owner
        { "machine" => Etc.uname[:nodename], "pid" => Process.pid, "start_ticks" => ProcessTable.start_ticks(Process.pid) }
      end

      # A folder made from this machine by a rackbench that is no longer running.
      def self.stale?(owner)
        return false unless owner.is_a?(Hash) && owner["machine"] == Etc.uname[:nodename]

        pid = owner["pid"].to_i
        !(ProcessTable.live?(pid) && ProcessTable.start_ticks(pid) == owner["start_ticks"])
      end

      private

      def base_dir = (@conn.host.run_dir || DEFAULT_BASE).sub(%r{\A~(?=/|\z)}, "$HOME")

      def q(text) = Shellwords.escape(text)

      # Removes the folders of this base whose rackbench is gone; returns their names.
      def remove_stale(base)
        listing = @conn.capture("for d in #{q(base)}/*/; do [ -f \"${d}#{OWNER_FILE}\" ] && " \
                                "printf '%s\\t%s\\n' \"$d\" \"$(cat \"${d}#{OWNER_FILE}\")\"; done; true")
        stale = listing.lines.filter_map do |line|
          dir, json = line.chomp.split("\t", 2)
          dir if self.class.stale?(JSON.parse(json.to_s))
        rescue JSON::ParserError
          nil
        end
        @conn.capture("rm -rf #{stale.map { |d| q(d) }.join(" ")}") unless stale.empty?
        stale
      end

      def stage(source, target)
        return FileUtils.mkdir_p(target) if File.directory?(source)
        return unless File.file?(source)

        FileUtils.mkdir_p(File.dirname(target))
        body = File.binread(source)
        text = body.dup.force_encoding(Encoding::UTF_8)
        File.binwrite(target, text.valid_encoding? && !text.include?("\0") ? map.call(text) : body)
        File.chmod(File.stat(source).mode, target)
      end

      def copy_probe_code
        @conn.push([PROBE_CODE], @root)
        map.add(PROBE_CODE, "#{@root}/#{File.basename(PROBE_CODE)}")
      end

      # Each app's folder (the bundled apps: their shared folder with them) under apps/ of the run's folder.
      def sync_apps
        folders = @apps.map { |app| bundled?(app) ? BUNDLED_APPS : File.dirname(File.expand_path(app)) }.uniq
        folders.each_with_index do |folder, i|
          remote = "#{@root}/apps/#{i + 1}"
          @conn.push([folder], remote)
          map.add(folder, "#{remote}/#{File.basename(folder)}")
        end
      end

      def bundled?(app) = File.expand_path(app).start_with?("#{BUNDLED_APPS}/")
    end
  end
end
