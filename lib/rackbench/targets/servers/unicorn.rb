# frozen_string_literal: true

module Rackbench
  module Servers
    # Unicorn: N forked single-threaded workers behind one listen socket (FIFO).
    # Its config file is generated into the cell's folder and kept there.
    #
    #   - {server: unicorn, workers: 4, preload: true}
    class Unicorn < Base
      NAME = "unicorn"
      GEM = "unicorn"
      knob :workers, :whole, min: 1, default: 1, doc: "worker processes (worker_processes)"
      knob :preload, :boolean, default: false, doc: "preload_app true"
      knob :backlog, :whole, min: 0, default: 1024, doc: "listen backlog"
      knob :config, :string,
           doc: "the app's own unicorn config file (relative to the app's folder), read first; the knobs above override it"
      tunes({ "workers" => [1, 2, 4, 8] })
      starter 2, "workers" => 2
      # Single-threaded workers by design; what doctor reads of an app's own config/unicorn.rb (Doctor::ServerFile).
      facts by_design: { "threads" => 1 }, config_file: "config/unicorn.rb",
            directives: {
              "workers" => [/\Aworker_processes\s*\(?\s*(.+?)\s*\)?\z/, ->(args, value) { value.of("Integer(#{args})") }],
              "preload" => [/\Apreload_app\s*\(?\s*(.+?)\s*\)?\z/, ->(args, value) { value.of(args) }]
            }

      def command(app:, bind:, dir:)
        config_path = write_config_file(dir, "unicorn.rb", app: app, body: config_file(bind))
        [*gem_bin("unicorn"), "-E", "production", "-c", config_path, app]
      end

      def config_file(bind)
        listen = bind.unix? ? bind.socket_path : "#{bind.address}:#{bind.port}"
        <<~RUBY
          worker_processes #{setting("workers")}
          listen #{listen.inspect}, backlog: #{setting("backlog")}
          preload_app #{setting("preload")}
          timeout 120
        RUBY
      end

      # QUIT is unicorn's graceful stop (TERM is its immediate one).
      def stop_signal = "QUIT"
    end

    register("unicorn", Unicorn)
  end
end
