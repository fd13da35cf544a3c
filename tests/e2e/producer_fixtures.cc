#include "tests/e2e/producer_fixtures.h"

#include <gtest/gtest.h>

#include "core/compression/compression.h"
#include "core/formats/perf/perf.h"
#include "tests/core/formats/jfr/wild_recordings.h"
#include "tests/support/flat_request.h"
#include "tests/support/jfr_request.h"
#include "tests/support/otlp_json_protobuf.h"
#include "tests/support/pprof_request.h"
#include "tests/support/temp_dir.h"

namespace proflow::testing {
namespace {

const std::string kTests = std::string(PROFLOW_SOURCE_DIR) + "/tests/";

// A gzip-compressed pprof file under tests/, as the pprof receivers convert it.
bool pprofFile(const std::string& path, const std::string& service, otlp::Request* out) {
  pprof::PprofToOtlpOptions options;
  options.resource_attributes = {{"service.name", service}};
  const Status s = pprof::pprofBytesToOtlp(readFile(kTests + path), options, out);
  EXPECT_TRUE(s.isOk()) << path << ": " << s.message();
  return s.isOk();
}

bool jfrRecording(const std::string& name, otlp::Request* out) {
  std::string jfr;
  compression::Limits limits;
  limits.max_output_bytes = 256u << 20;
  limits.max_inflate_ratio = 1000;
  const Status s = compression::decompress(compression::Codec::kGzip, readFile(wildRecording(name)), jfr, limits);
  EXPECT_TRUE(s.isOk()) << name << ": " << s.message();
  if (!s.isOk()) return false;
  const jfr::ConvertResult r = jfr::convertToOtlp(
      std::span(reinterpret_cast<const uint8_t*>(jfr.data()), jfr.size()), jfr::ConvertOptions{}, out);
  EXPECT_TRUE(r.ok) << name << ": " << r.error.message;
  return r.ok;
}

bool perfRecording(otlp::Request* out) {
  const std::string data = readFile(kTests + "core/formats/perf/testdata/workload.perf.data");
  perf::Options options;
  options.end_time_unix_nano = 1'700'000'000'000'000'000ULL;  // the recording has no clock anchor
  flat::Batch batch;
  Status s = perf::perfDataToFlat(data, options, &batch);
  if (s.isOk()) s = flat::toRequest(batch, out);
  EXPECT_TRUE(s.isOk()) << s.message();
  return s.isOk();
}

bool otlpProto(const std::string& file, otlp::Request* out) {
  const bool ok = out->ParseFromString(readFile(kTests + "fuzz/corpus/otlp_proto/" + file));
  EXPECT_TRUE(ok) << file;
  return ok;
}

bool otlpJson(const std::string& file, otlp::Request* out) {
  const Status s = otlp_json_pb::parseOtlpJson(readFile(kTests + "fuzz/corpus/otlp_json/" + file), out);
  EXPECT_TRUE(s.isOk()) << file << ": " << s.message();
  return s.isOk();
}

}  // namespace

std::vector<ProducerFixture> producerFixtures() {
  std::vector<ProducerFixture> out;
  auto add = [&out](std::string name, auto&& load) {
    ProducerFixture f{std::move(name), {}};
    if (load(&f.request)) out.push_back(std::move(f));
  };
  add("Go runtime pprof, CPU",
      [](otlp::Request* r) { return pprofFile("core/flat/testdata/go_cpu.pb.gz", "go-cpu", r); });
  add("Go runtime pprof, heap (4 sample types)",
      [](otlp::Request* r) { return pprofFile("core/flat/testdata/go_heap.pb.gz", "go-heap", r); });
  add("Node.js pprof from @pyroscope/nodejs, wall time", [](otlp::Request* r) {
    return pprofFile("receivers/pyroscope/testdata/ingest_wall.pb.gz", "node-wall", r);
  });
  add("JFR, pyroscope-java with span context", [](otlp::Request* r) { return jfrRecording("new_spancontext", r); });
  add("JFR, async-profiler wall clock", [](otlp::Request* r) { return jfrRecording("wall", r); });
  add("Linux perf record", perfRecording);
  add("OTLP, every field set", [](otlp::Request* r) { return otlpProto("every_field.pb", r); });
  add("OTLP, an agent's two profiles", [](otlp::Request* r) { return otlpProto("agent_two_profiles.pb", r); });
  add("OTLP/JSON, README example", [](otlp::Request* r) { return otlpJson("readme_example.json", r); });
  return out;
}

}  // namespace proflow::testing
