#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <spdlog/logger.h>
#include <spdlog/sinks/ostream_sink.h>

#include <sstream>

#include "core/config/config_loader.h"
#include "tests/support/dictionary_builder.h"
#include "tests/support/request_merger.h"
#include "core/telemetry/metrics.h"
#include "exporters/debug/debug_exporter.h"
#include "exporters/debug/factory.h"
#include "tests/support/component_config.h"
#include "tests/support/profile_builder.h"
#include "tests/support/stand_ins.h"
#include "tests/support/flat_request.h"

namespace proflow::exporters::debug {
namespace {

using ::proflow::testing::makeProfile;
using ::proflow::testing::makeRequest;
using ::proflow::testing::ProfileSpec;
using ::testing::HasSubstr;
using ::testing::Not;

using ::proflow::testing::NullHost;

// Runs one exporter with its log captured line by line.
struct Captured {
  std::ostringstream out;
  telemetry::MetricsRegistry registry;
  telemetry::ComponentTelemetry telemetry{registry, ComponentKind::kExporter, "debug"};
  std::unique_ptr<DebugExporter> exporter;

  explicit Captured(const std::string& verbosity, uint32_t top = 5) {
    auto sink = std::make_shared<spdlog::sinks::ostream_sink_mt>(out);
    sink->set_pattern("%v");
    CreateSettings s;
    s.id = {"debug", ""};
    s.kind = ComponentKind::kExporter;
    s.logger = std::make_shared<spdlog::logger>("debug", sink);
    s.telemetry = &telemetry;
    DebugExporterConfig c;
    c.verbosity = verbosity;
    c.top_stacks = top;
    exporter = std::make_unique<DebugExporter>(s, c);
    NullHost host;
    EXPECT_TRUE(exporter->start(host).isOk());
  }

  std::vector<std::string> lines() const {
    std::vector<std::string> v;
    std::istringstream in(out.str());
    for (std::string l; std::getline(in, l);) v.push_back(l);
    return v;
  }
};

otlp::Request twoServices() {
  otlp::Request a = makeRequest("checkout", {makeProfile(3, 0)});
  ProfileSpec heavy;
  heavy.sample_type = "alloc_space";
  heavy.sample_unit = "bytes";
  heavy.samples = {{{"malloc", "load"}, 700}, {{"free", "load"}, 200}, {{"malloc", "load"}, 100}};
  otlp::Request b = makeRequest("payments", {heavy});
  RequestMerger m(&a);
  m.append(b);
  return a;
}

TEST(DebugExporter, BasicLogsOneLinePerBatch) {
  Captured c("basic");
  ASSERT_TRUE(c.exporter->consume(::proflow::testing::batchOf(twoServices())).isOk());
  ASSERT_TRUE(c.exporter->consume(::proflow::testing::batchOf(makeRequest("x", {makeProfile(7)}))).isOk());
  EXPECT_THAT(c.lines(), ::testing::ElementsAre("ProfilesBatch resources=2 profiles=2 samples=6",
                                                "ProfilesBatch resources=1 profiles=1 samples=7"));
  EXPECT_EQ(c.registry.value("proflow_exporter_sent_batches_total", {{"exporter", "debug"}}), 2);
  EXPECT_EQ(c.registry.value("proflow_exporter_sent_samples_total", {{"exporter", "debug"}}), 13);
}

TEST(DebugExporter, NormalAddsOneLinePerProfile) {
  Captured c("normal");
  ASSERT_TRUE(c.exporter->consume(::proflow::testing::batchOf(twoServices())).isOk());
  auto lines = c.lines();
  ASSERT_EQ(lines.size(), 3u) << c.out.str();
  // makeProfile(3, 0): values 100, 101, 102 at 1.7e18 ns = 2023-11-14T22:13:20Z.
  EXPECT_EQ(lines[1],
            "Profile service=checkout type=cpu/nanoseconds samples=3 total=303 time=2023-11-14T22:13:20.000Z "
            "duration=10s");
  EXPECT_THAT(lines[2], HasSubstr("service=payments type=alloc_space/bytes samples=3 total=1000"));
  EXPECT_THAT(c.out.str(), Not(HasSubstr("#1")));
}

TEST(DebugExporter, DetailedListsTheHeaviestStacksWithFunctionNames) {
  Captured c("detailed", 1);
  ASSERT_TRUE(c.exporter->consume(::proflow::testing::batchOf(twoServices())).isOk());
  auto lines = c.lines();
  ASSERT_EQ(lines.size(), 5u) << c.out.str();
  // malloc<-load appears twice (700 + 100): same stack, aggregated, and it is the heaviest.
  EXPECT_EQ(lines[4], "  #1 800 (80.0%) malloc <- load");
  EXPECT_THAT(c.out.str(), Not(HasSubstr("free")));  // only the top 1 is listed
}

TEST(DebugExporter, DetailedResolvesInlinedAndUnsymbolizedFrames) {
  otlp::Request r;
  DictionaryBuilder d(r.mutable_dictionary());
  auto* rp = r.add_resource_profiles();
  // Reference-based resource attribute (OTLP 1.10): key and value through the string table.
  auto* kv = rp->mutable_resource()->add_attributes();
  kv->set_key_strindex(d.string("service.name"));
  kv->mutable_value()->set_string_value_strindex(d.string("indexer"));
  auto* p = rp->add_scope_profiles()->add_profiles();
  otlp::Location inlined;
  inlined.add_lines()->set_function_index(d.function("inner", "", "a.cc"));
  inlined.add_lines()->set_function_index(d.function("outer", "", "a.cc"));
  otlp::Mapping libc;
  libc.set_filename_strindex(d.string("libc.so.6"));
  libc.set_memory_limit(0x100000);
  otlp::Location raw;
  raw.set_mapping_index(d.mapping(libc));
  raw.set_address(0x1a2b);
  int32_t locs[] = {d.location(raw), d.location(inlined)};
  auto* s = p->add_samples();
  s->set_stack_index(d.stack(locs));
  s->add_timestamps_unix_nano(1);  // timestamps only: each counts 1
  s->add_timestamps_unix_nano(2);

  Captured c("detailed");
  ASSERT_TRUE(c.exporter->consume(::proflow::testing::batchOf(std::move(r))).isOk());
  const std::string out = c.out.str();
  EXPECT_THAT(out, HasSubstr("Profile service=indexer"));
  EXPECT_THAT(out, HasSubstr("samples=1 total=2"));
  EXPECT_THAT(out, HasSubstr("  #1 2 (100.0%) libc.so.6+0x1a2b <- inner <- outer"));
}

config::ConfigErrors validate(const std::string& yaml) {
  return ::proflow::testing::checkComponentConfig(*makeDebugExporterFactory(), yaml, "exporters.debug");
}

TEST(DebugExporterConfig, RejectsUnknownVerbosityWithTheValidOnes) {
  auto errors = validate("verbosity: loud\n");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_THAT(errors.format(), HasSubstr("t.yaml:1:1"));
  EXPECT_THAT(errors.format(), HasSubstr("valid values: basic, normal, detailed"));
  EXPECT_TRUE(validate("verbosity: detailed\ntop_stacks: 3\n").empty());
}

TEST(DebugExporterConfig, FactoryBuildsAWorkingExporter) {
  auto f = makeDebugExporterFactory();
  EXPECT_EQ(f->type(), "debug");
  EXPECT_EQ(f->kind(), ComponentKind::kExporter);
  auto cfg = f->createDefaultConfig();
  EXPECT_EQ(cfg->as<DebugExporterConfig>().verbosity, "basic");
}

}  // namespace
}  // namespace proflow::exporters::debug
