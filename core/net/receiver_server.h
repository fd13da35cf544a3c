// The HTTP server options every HTTP receiver derives from its config the same way.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <optional>
#include <string>

#include "core/net/http_server.h"
#include "core/net/tls_config.h"
#include "core/util/status.h"

namespace proflow::net {

// Endpoint, one body limit for the wire and after decompression, the inflate-ratio cap, compressed
// bodies inflated on `decode_on` (the runtime's workers), TLS when `tls` is set, and the screen of
// browser requests (request_origin.h). Fails (naming the file) when the certificate or key cannot be loaded.
Status receiverServerOptions(std::string endpoint, size_t max_body_bytes, double max_inflate_ratio,
                             const std::optional<TlsServerConfig>& tls, boost::asio::any_io_executor decode_on,
                             HttpServerOptions* out);

}  // namespace proflow::net
