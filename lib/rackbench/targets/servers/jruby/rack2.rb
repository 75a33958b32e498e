# frozen_string_literal: true

# Activates Rack 2.2 in a JRuby server before anything requires 'rack': the
# Rails app's Rails 6.1 (the last for JRuby 9.3's Ruby 2.6) needs Rack 2, and
# a server's gem folder may also hold a Rack 3 (puma_jruby's, or the one
# torquebox-web's "rack >= 1.4" brought in), which 'rack' would load first.
# Trinidad needs none: its folder holds Rack 2.2 only. Loaded by puma_jruby
# (jruby -r this) and by torquebox_server.rb.
gem "rack", "~> 2.2"
