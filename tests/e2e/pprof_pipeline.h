// The real proflow binary wired as pprof receiver -> <processors> -> file exporter (otlp_proto), fed
// Go runtime profiles written at test time, and what came out of it flattened for assertions.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/model/otlp_types.h"
#include "tests/support/daemon.h"
#include "tests/support/temp_dir.h"

namespace proflow::testing {

// Directory holding cpu, heap, allocs, mutex, block and goroutine .pb.gz written by the Go test
// program (tests/receivers/pprof/testdata/pprofapp), once per test process; "" and `error` set
// when go is missing or the program fails.
std::string goProfilesDir(std::string* error);

class PprofPipeline {
 public:
  // `processors_yaml`: the body of the `processors:` map (indented by two spaces per entry);
  // `chain`: the pipeline's processor list, e.g. "[filter, compress]".
  PprofPipeline(const TempDir& dir, const std::string& name, const std::string& processors_yaml,
                const std::string& chain, const Daemon::Env& env = {});

  bool healthy() { return daemon_->waitHealthy(metrics_port_); }
  // POSTs `file` to /v1/pprof<query> with curl; returns the HTTP status (0 when curl failed).
  int post(const std::string& file, const std::string& query = "");
  // SIGTERMs the daemon (expects exit 0) and returns every request the file exporter wrote.
  std::vector<otlp::Request> stop();
  std::string log() const { return daemon_->log(); }

 private:
  const TempDir& dir_;
  std::string name_, out_;
  int port_ = 0, metrics_port_ = 0;
  std::unique_ptr<Daemon> daemon_;
};

// One exported profile, with its dictionary lookups done.
struct SeenProfile {
  std::string type;                                     // sample type, e.g. "cpu"
  std::map<std::string, std::string> resource;          // resource attributes as text
  std::map<std::string, std::string> attributes;        // profile attributes as text
  uint64_t time_unix_nano = 0;
  std::vector<int64_t> values;                          // per sample: sum of its values
  std::vector<std::vector<std::string>> stacks;         // per sample: function names, leaf first
  std::vector<std::map<std::string, std::string>> sample_attributes;  // per sample
  int64_t total() const;
};
std::vector<SeenProfile> seenProfiles(const std::vector<otlp::Request>& requests);

// Per sample type of a pprof file: {sample count, sum of values}; also its time_nanos.
struct PprofTotals {
  std::map<std::string, std::pair<size_t, int64_t>> by_type;
  int64_t time_nanos = 0;
  std::vector<std::vector<std::string>> stacks;  // per sample: function names, leaf first
};
PprofTotals pprofTotals(const std::string& file);

}  // namespace proflow::testing
