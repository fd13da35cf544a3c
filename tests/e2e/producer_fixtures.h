// Committed recordings of several producers, each converted to the OTLP request that proflow's
// receivers would make of it: Go's runtime pprof (CPU and heap), Node.js pprof, JFR from
// async-profiler and pyroscope-java, Linux perf, and OTLP requests as agents send them. End-to-end
// tests send these through other implementations and check that what comes back means the same.
#pragma once

#include <string>
#include <vector>

#include "core/model/otlp_types.h"

namespace proflow::testing {

struct ProducerFixture {
  std::string name;  // which producer and recording, for failure messages
  otlp::Request request;
};

// Every fixture; a fixture that fails to load or convert fails the current test and is left out.
std::vector<ProducerFixture> producerFixtures();

}  // namespace proflow::testing
