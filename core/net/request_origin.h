// Refusing what a web page makes a browser send. A page on any site can have the browser POST a
// form to a server on the user's machine or network (cross-site request forgery), and a page whose
// DNS name is rebound to 127.0.0.1 reads a loopback server's answers as its own (DNS rebinding).
// Browsers say where a request comes from (Origin, Sec-Fetch-Site) and which name they asked for
// (Host); clients that are not browsers send neither Origin nor Sec-Fetch-Site, and are unaffected.
#pragma once

#include <functional>
#include <string>

#include "core/net/http_types.h"
#include "core/util/status.h"

namespace proflow::net {

// Methods other than GET, HEAD and OPTIONS change state: refused (PERMISSION_DENIED) when
// Sec-Fetch-Site is present and not `same-origin` or `none` (typed or bookmarked), or, without it,
// when Origin is present and its host:port is not the Host header's (Origin `null` included).
Status checkSameOriginWrite(const HttpRequest& head);

// The Host header names this machine: localhost, an address in 127.0.0.0/8 or [::1], with or
// without a port. Refused (PERMISSION_DENIED) otherwise; a request without Host (HTTP/1.0) passes.
Status checkLoopbackHost(const HttpRequest& head);

// The screen of a server listening on `endpoint` (HttpServerOptions::screen): checkSameOriginWrite,
// and checkLoopbackHost when the endpoint is loopback-bound.
std::function<Status(const HttpRequest& head)> browserRequestScreen(const std::string& endpoint);

}  // namespace proflow::net
