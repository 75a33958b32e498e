# frozen_string_literal: true

# Every endpoint of apps/shared/catalogue.rb, served by WorkloadsController#serve;
# a :file endpoint is its file in public/ (the shared public folder), served
# by ActionDispatch::Static.
Rails.application.routes.draw do
  Workloads::CATALOGUE.each do |endpoint|
    if endpoint.kind == :file
      served = File.join(Workloads::PUBLIC_DIR, "#{endpoint.route}.html")
      file = endpoint.call([])
      raise "#{endpoint.name}: ActionDispatch::Static serves #{served}, not #{file}" unless file == served

      next
    end

    digits = endpoint.params.to_h { |param| [param.to_sym, /\d+/] }
    public_send(endpoint.verb.downcase, endpoint.route, to: "workloads#serve", defaults: { endpoint: endpoint.name },
                                                        constraints: digits)
  end
end
