// Whether an address reaches only this machine: decides what the telemetry endpoint may serve
// without credentials and which Host headers a loopback-bound server accepts.
#pragma once

#include <string_view>

namespace proflow::net {

// "localhost" (any case), an IPv4 literal in 127.0.0.0/8, or "::1" (bracketed or not).
bool isLoopbackHost(std::string_view host);

// A "host:port" endpoint (as in config) that binds loopback only. ":port" (every interface), a
// DNS name other than localhost and anything unparsable count as not loopback.
bool isLoopbackEndpoint(std::string_view endpoint);

}  // namespace proflow::net
