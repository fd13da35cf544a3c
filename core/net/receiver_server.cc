#include "core/net/receiver_server.h"

#include "core/net/request_origin.h"
#include "core/net/tls_server.h"

namespace proflow::net {

Status receiverServerOptions(std::string endpoint, size_t max_body_bytes, double max_inflate_ratio,
                             const std::optional<TlsServerConfig>& tls, boost::asio::any_io_executor decode_on,
                             HttpServerOptions* out) {
  HttpServerOptions opts;
  opts.endpoint = std::move(endpoint);
  opts.max_request_body_bytes = max_body_bytes;
  opts.max_wire_body_bytes = max_body_bytes;
  opts.decompression.max_inflate_ratio = max_inflate_ratio;
  opts.decode_executor = std::move(decode_on);
  opts.screen = browserRequestScreen(opts.endpoint);
  if (tls) {
    if (Status s = makeServerTlsContext(*tls, &opts.tls); !s.isOk()) return s;
  }
  *out = std::move(opts);
  return Status::ok();
}

}  // namespace proflow::net
