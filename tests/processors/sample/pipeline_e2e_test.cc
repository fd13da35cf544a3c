// End to end through two in-process services (OTLP/HTTP receiver -> filter -> sample -> compress ->
// file exporter), fed the same request with curl: both make the same sampling decisions, the filter
// and compaction rules show in the files, and each kept profile's total is the one sent.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>

#include "core/config/service_config.h"
#include "core/component/registry.h"
#include "tests/support/request_merger.h"
#include "core/service/service.h"
#include "exporters/file/factory.h"
#include "processors/compress/factory.h"
#include "processors/filter/factory.h"
#include "processors/sample/factory.h"
#include "receivers/otlp/factory.h"
#include "tests/support/daemon.h"
#include "tests/support/otlp_files.h"
#include "tests/support/profile_builder.h"
#include "tests/support/temp_dir.h"

namespace proflow {
namespace {

using testing::ProfileSpec;

// One service with just the components this test needs (the lead registers built-ins separately).
struct Instance {
  Registry registry;
  std::unique_ptr<Service> service;
  int port = 0;
  std::string out;

  Instance(const proflow::testing::TempDir& dir, const std::string& name) {
    EXPECT_TRUE(registry.add(receivers::otlp::makeOtlpReceiverFactory()).isOk());
    EXPECT_TRUE(registry.add(exporters::file::makeFileExporterFactory()).isOk());
    EXPECT_TRUE(registry.add(processors::filter::makeFilterProcessorFactory()).isOk());
    EXPECT_TRUE(registry.add(processors::sample::makeSampleProcessorFactory()).isOk());
    EXPECT_TRUE(registry.add(processors::compress::makeCompressProcessorFactory()).isOk());
    port = proflow::testing::freePort();
    out = dir.file(name + ".bin");
    std::string yaml = R"(
receivers:
  otlp: { protocols: { http: { endpoint: "127.0.0.1:)" + std::to_string(port) + R"(" } } }
processors:
  filter:
    drop_profiles: [ { key: service.name, regex: "canary-.*", in: resource } ]
    drop_frames: 'runtime\..*'
  sample: { mode: probabilistic, percentage: 40 }
  compress: {}
exporters:
  file: { path: ")" + out + R"(", format: otlp_proto }
service:
  shutdown_timeout: 2s
  telemetry: { metrics: { address: "127.0.0.1:0" } }
  pipelines:
    profiles: { receivers: [otlp], processors: [filter, sample, compress], exporters: [file] }
)";
    config::ServiceConfig cfg;
    std::string errors;
    Status s = config::loadServiceConfigText(yaml, name + ".yaml", registry, &cfg, &errors);
    EXPECT_TRUE(s.isOk()) << errors;
    if (!s.isOk()) return;
    service = std::make_unique<Service>(std::move(cfg));
    s = service->start();
    EXPECT_TRUE(s.isOk()) << s.toString();
  }
};

int64_t total(const otlp::Profile& p) {
  int64_t t = 0;
  for (const auto& s : p.samples())
    for (int64_t v : s.values()) t += v;
  return t;
}

otlp::Request input(std::map<uint64_t, int64_t>* totals) {
  auto specs = [&](int offset, bool record) {
    std::vector<ProfileSpec> out;
    for (int i = 0; i < 60; ++i) {
      ProfileSpec p = testing::makeProfile(6, i);
      p.time_unix_nano += static_cast<uint64_t>(offset + i) * 1000;
      p.samples.push_back({{"runtime.mallocgc", "handle_request", "main"}, 5});
      p.samples.push_back({{"memclr", "runtime.mallocgc", "handle_request", "main"}, 7});
      int64_t t = 0;
      for (const auto& s : p.samples) t += s.value;
      if (record) (*totals)[p.time_unix_nano] = t;
      out.push_back(p);
    }
    return out;
  };
  otlp::Request merged;
  RequestMerger m(&merged);
  m.append(testing::makeRequest("api", specs(0, true)));
  m.append(testing::makeRequest("canary-7", specs(100, false)));
  return merged;
}

TEST(ShapingPipelineE2E, TwoServicesDecideAlikeAndKeepTotals) {
  proflow::testing::TempDir dir;
  std::map<uint64_t, int64_t> sent_totals;
  const std::string body = dir.file("req.pb");
  std::ofstream(body, std::ios::binary) << input(&sent_totals).SerializeAsString();

  std::vector<std::set<uint64_t>> kept(2);
  for (int k = 0; k < 2; ++k) {
    Instance inst(dir, "svc" + std::to_string(k));
    ASSERT_TRUE(inst.service);
    std::string out;
    int rc = proflow::testing::runCommand(
        {"curl", "-sS", "-o", "/dev/null", "-w", "%{http_code}", "-X", "POST", "-H", "Content-Type: application/x-protobuf",
         "--data-binary", "@" + body, "http://127.0.0.1:" + std::to_string(inst.port) + "/v1development/profiles"},
        &out);
    ASSERT_EQ(rc, 0) << "curl failed (is curl installed?): " << out;
    EXPECT_EQ(out, "200");
    inst.service->shutdown();
    auto requests = proflow::testing::readOtlpProtoFile(inst.out);
    for (const auto& req : requests) {
      EXPECT_THAT(proflow::testing::dictionaryProblems(req), ::testing::IsEmpty());
      for (int r = 0; r < req.resource_profiles_size(); ++r) {
        EXPECT_EQ(proflow::testing::serviceName(req, r), "api") << "canary profiles are filtered out";
        for (const auto& p : req.resource_profiles(r).scope_profiles(0).profiles()) {
          kept[k].insert(p.time_unix_nano());
          ASSERT_TRUE(sent_totals.count(p.time_unix_nano()));
          EXPECT_EQ(total(p), sent_totals[p.time_unix_nano()]) << "filter and compress keep totals";
          std::set<int32_t> stacks;
          for (const auto& s : p.samples()) {
            EXPECT_TRUE(stacks.insert(s.stack_index()).second) << "compress merged equal stacks";
            for (const auto& f : proflow::testing::stackFrames(req.dictionary(), s.stack_index()))
              EXPECT_NE(f.rfind("runtime.", 0), 0u) << f;
          }
        }
      }
    }
  }
  EXPECT_EQ(kept[0], kept[1]) << "both services must make the same sampling decisions";
  EXPECT_GT(kept[0].size(), 5u);
  EXPECT_LT(kept[0].size(), 55u);
}

}  // namespace
}  // namespace proflow
