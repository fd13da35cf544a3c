// Where the backends are: a fixed list, or every address of a DNS name (a Kubernetes headless
// Service lists one per gateway pod).
#pragma once

#include <string>
#include <vector>

#include "core/util/status.h"

namespace proflow::exporters::loadbalancing {

// All addresses of `hostname` as "ip:port" ("[v6]:port" for IPv6), sorted and deduplicated.
// kUnavailable (with the resolver's message) when the name does not resolve.
Status resolveBackends(const std::string& hostname, int port, std::vector<std::string>* out);

}  // namespace proflow::exporters::loadbalancing
