// format: pprof — batches made from pprof files (encoded with core/formats/pprof, converted with
// pprofToOtlp) come back out as one .pb.gz per source pprof with the same sample types, values and labels.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <future>
#include <map>
#include <regex>
#include <set>

#include "core/config/config_loader.h"
#include "core/formats/pprof/pprof_codec.h"
#include "tests/support/pprof_request.h"
#include "exporters/file/factory.h"
#include "tests/exporters/file/test_util.h"
#include "tests/support/component_config.h"
#include "tests/support/profile_builder.h"
#include "tests/support/temp_dir.h"
#include "tests/support/flat_request.h"

namespace proflow::exporters::file {
namespace {

namespace fs = std::filesystem;
using ::proflow::testing::readFile;
using ::proflow::testing::TempDir;
using ::testing::HasSubstr;
using pprof::Profile;

int64_t str(Profile* p, const std::string& s) {
  for (int i = 0; i < p->string_table_size(); ++i)
    if (p->string_table(i) == s) return i;
  p->add_string_table(s);
  return p->string_table_size() - 1;
}

// A pprof with `types` sample types ({type, unit}), `samples` samples over a two-frame stack, a
// string label on every sample and a numeric label with a unit on odd samples.
Profile makePprof(const std::vector<std::pair<std::string, std::string>>& types, int samples, int seed) {
  Profile p;
  p.add_string_table("");
  for (const auto& [t, u] : types) {
    auto* st = p.add_sample_type();
    st->set_type(str(&p, t));
    st->set_unit(str(&p, u));
  }
  auto* m = p.add_mapping();
  m->set_id(1);
  m->set_memory_start(0x400000);
  m->set_memory_limit(0x500000);
  m->set_filename(str(&p, "/usr/bin/app"));
  for (int i = 1; i <= 2; ++i) {
    auto* f = p.add_function();
    f->set_id(i);
    f->set_name(str(&p, "main.fn" + std::to_string(i)));
    auto* l = p.add_location();
    l->set_id(i);
    l->set_mapping_id(1);
    l->set_address(0x400000 + 32 * i);
    l->add_line()->set_function_id(i);
  }
  for (int i = 0; i < samples; ++i) {
    auto* s = p.add_sample();
    s->add_location_id(1 + i % 2);
    s->add_location_id(2 - i % 2);
    for (int v = 0; v < p.sample_type_size(); ++v) s->add_value(int64_t{seed} * 1000 + i * 10 + v + 1);
    auto* l = s->add_label();
    l->set_key(str(&p, "handler"));
    l->set_str(str(&p, "/api/" + std::to_string(i % 3)));
    if (i % 2) {
      l = s->add_label();
      l->set_key(str(&p, "bytes"));
      l->set_num(4096 + i);
      l->set_num_unit(str(&p, "bytes"));
    }
  }
  p.mutable_period_type()->set_type(str(&p, types[0].first));
  p.mutable_period_type()->set_unit(str(&p, types[0].second));
  p.set_period(100);
  p.set_time_nanos(1'700'000'000'000'000'000 + seed);
  return p;
}

// What must survive: sample types in order, and every sample's values and labels (resolved).
struct Flat {
  std::vector<std::string> types;
  std::vector<std::string> samples;  // "values | labels", in sample order
};

Flat flatten(const Profile& p) {
  Flat f;
  const auto& s = p.string_table();
  for (const auto& st : p.sample_type()) f.types.push_back(s[st.type()] + "/" + s[st.unit()]);
  for (const auto& sample : p.sample()) {
    std::string row;
    for (auto v : sample.value()) row += std::to_string(v) + ",";
    std::vector<std::string> labels;
    for (const auto& l : sample.label())
      labels.push_back(s[l.key()] + "=" + (l.str() ? s[l.str()] : std::to_string(l.num()) + s[l.num_unit()]));
    std::sort(labels.begin(), labels.end());  // label order within a sample carries no meaning
    row += " |";
    for (const auto& l : labels) row += " " + l;
    f.samples.push_back(row);
  }
  return f;
}

// Encodes `p` as a gzip pprof file, decodes it again and converts it into `request`.
void addPprof(const Profile& p, const std::string& service, otlp::Request* request) {
  std::string bytes;
  ASSERT_TRUE(pprof::encodeProfile(p, &bytes).isOk());
  pprof::PprofToOtlpOptions o;
  if (!service.empty()) o.resource_attributes = {{"service.name", service}};
  Status s = pprof::pprofBytesToOtlp(bytes, o, request);
  ASSERT_TRUE(s.isOk()) << s.message();
}

std::vector<std::string> outputFiles(const std::string& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

TEST(PprofFormat, OneFilePerSourcePprofReadsBackUnchanged) {
  TempDir dir;
  Harness h;
  FileExporterConfig c;
  c.path = dir.file("out/pprof");  // created at start
  c.format = "pprof";
  c.flush_interval = std::chrono::seconds(0);
  auto exporter = h.make(c);
  ASSERT_TRUE(exporter->start(h.host).isOk());

  // Batch 1: two services; batch 2: one. Multi-value cpu profile, allocs-like 4-type profile, 1-type.
  const std::map<std::string, Profile> sources = {
      {"checkout", makePprof({{"samples", "count"}, {"cpu", "nanoseconds"}}, 7, 1)},
      {"payments", makePprof({{"alloc_objects", "count"}, {"alloc_space", "bytes"}, {"inuse_objects", "count"},
                              {"inuse_space", "bytes"}}, 5, 2)},
      {"search", makePprof({{"contentions", "count"}}, 3, 3)}};
  otlp::Request first, second;
  addPprof(sources.at("checkout"), "checkout", &first);
  addPprof(sources.at("payments"), "payments", &first);
  addPprof(sources.at("search"), "search", &second);
  ASSERT_TRUE(exporter->consume(::proflow::testing::batchOf(otlp::Request(first))).isOk());
  ASSERT_TRUE(exporter->consume(::proflow::testing::batchOf(otlp::Request(second))).isOk());
  exporter->shutdown(Deadline::clock::now());

  const auto files = outputFiles(c.path);
  ASSERT_EQ(files.size(), 3u) << ::testing::PrintToString(files);  // no temporary files left behind
  const std::regex shape(R"(([a-z]+)-\d{8}T\d{6}-\d{6}\.pb\.gz)");
  double total_bytes = 0;
  std::set<std::string> seen;
  for (const auto& name : files) {
    std::smatch m;
    ASSERT_TRUE(std::regex_match(name, m, shape)) << name;
    const std::string service = m[1];
    ASSERT_TRUE(sources.count(service)) << name;
    seen.insert(service);
    const std::string data = readFile(c.path + "/" + name);
    total_bytes += static_cast<double>(data.size());
    ASSERT_GE(data.size(), 2u);
    EXPECT_EQ(uint8_t(data[0]), 0x1f) << "gzip magic";
    EXPECT_EQ(uint8_t(data[1]), 0x8b) << "gzip magic";
    Profile got;
    Status s = pprof::decodeProfile(data, &got);
    ASSERT_TRUE(s.isOk()) << name << ": " << s.message();
    const Flat want = flatten(sources.at(service)), have = flatten(got);
    EXPECT_EQ(have.types, want.types) << name;
    EXPECT_EQ(have.samples, want.samples) << name;
    EXPECT_EQ(got.period(), 100) << name;
  }
  EXPECT_EQ(seen.size(), 3u);
  EXPECT_EQ(h.metric("proflow_exporter_sent_batches_total"), 2);
  EXPECT_EQ(h.metric("proflow_exporter_sent_profiles_total"), 2 + 4 + 1);  // one OTLP profile per sample type
  EXPECT_EQ(h.metric("proflow_exporter_failed_batches_total"), 0);
  EXPECT_EQ(h.metric("proflow_exporter_bytes_out_total"), total_bytes);
}

// format pprof into <dir>/pprof, every file synced before consume() returns.
FileExporterConfig syncedPprofConfig(const TempDir& dir) {
  FileExporterConfig c;
  c.path = dir.file("pprof");
  c.format = "pprof";
  c.flush_interval = std::chrono::seconds(0);
  return c;
}

// flush_interval 0: a writer whose file is being synced does not hold the others up; they write,
// sync and rename their own files meanwhile.
TEST(PprofFormat, AWriterIsNotHeldUpByAnotherWritersSync) {
  TempDir dir;
  Harness h;
  const FileExporterConfig c = syncedPprofConfig(dir);
  HeldFirstSync sync;
  auto e = std::make_unique<FileExporter>(h.settings(), c, makeEncoder(c.format), sync.fn());
  ASSERT_TRUE(e->start(h.host).isOk());
  auto consume = [&](const std::string& service) {
    otlp::Request r;
    addPprof(makePprof({{"samples", "count"}}, 2, 0), service, &r);
    return std::async(std::launch::async, [&e, r] { return e->consume(::proflow::testing::batchOf(r)); });
  };
  auto first = consume("first");
  ASSERT_TRUE(sync.waitUntilHeld());
  auto second = consume("second");
  const bool done_meanwhile = second.wait_for(std::chrono::seconds(20)) == std::future_status::ready;
  sync.release();
  ASSERT_TRUE(done_meanwhile) << "the second writer waited for the first writer's fdatasync";
  EXPECT_TRUE(second.get().isOk());
  EXPECT_TRUE(first.get().isOk());
  e->shutdown(Deadline::clock::now());
  const auto files = outputFiles(c.path);
  ASSERT_EQ(files.size(), 2u) << ::testing::PrintToString(files);  // no temporary files left behind
  EXPECT_TRUE(files[0].starts_with("first-")) << files[0];
  EXPECT_TRUE(files[1].starts_with("second-")) << files[1];
}

TEST(PprofFormat, NamesFilesUnknownWithoutServiceNameAndNeverOverwrites) {
  TempDir dir;
  Harness h;
  FileExporterConfig c;
  c.path = dir.file("pprof");
  c.format = "pprof";  // default flush_interval: syncs in the background and at shutdown
  otlp::Request r;
  addPprof(makePprof({{"samples", "count"}}, 2, 0), "", &r);
  // Two exporters on one directory in the same second restart at the same sequence number: the
  // second must pick another name instead of replacing the first file.
  for (int run = 0; run < 2; ++run) {
    auto exporter = h.make(c);
    ASSERT_TRUE(exporter->start(h.host).isOk());
    ASSERT_TRUE(exporter->consume(::proflow::testing::batchOf(otlp::Request(r))).isOk());
    exporter->shutdown(Deadline::clock::now());
  }
  const auto files = outputFiles(c.path);
  ASSERT_EQ(files.size(), 2u) << ::testing::PrintToString(files);
  for (const auto& name : files) {
    EXPECT_TRUE(std::regex_match(name, std::regex(R"(unknown-\d{8}T\d{6}-\d{6}\.pb\.gz)"))) << name;
    Profile got;
    EXPECT_TRUE(pprof::decodeProfile(readFile(c.path + "/" + name), &got).isOk()) << name;
    EXPECT_EQ(got.sample_size(), 2) << name;
  }
}

TEST(PprofFormat, NamesFilesAfterAReferenceBasedServiceName) {
  TempDir dir;
  Harness h;
  const FileExporterConfig c = syncedPprofConfig(dir);
  otlp::Request r;
  addPprof(makePprof({{"samples", "count"}}, 2, 0), "checkout", &r);
  proflow::testing::referenceResourceAttributes(&r);  // service.name as key_strindex/string_value_strindex
  auto exporter = h.make(c);
  ASSERT_TRUE(exporter->start(h.host).isOk());
  ASSERT_TRUE(exporter->consume(::proflow::testing::batchOf(otlp::Request(r))).isOk());
  exporter->shutdown(Deadline::clock::now());
  const auto files = outputFiles(c.path);
  ASSERT_EQ(files.size(), 1u) << ::testing::PrintToString(files);
  EXPECT_TRUE(std::regex_match(files[0], std::regex(R"(checkout-\d{8}T\d{6}-\d{6}\.pb\.gz)"))) << files[0];
}

TEST(PprofFormat, ServiceNameIsMadeSafeForAFileName) {
  EXPECT_EQ(GroupDirectory::fileName("shop/cart api", std::chrono::system_clock::from_time_t(0), 7, ".pb.gz"),
            "shop_cart_api-19700101T000000-000007.pb.gz");
  EXPECT_EQ(GroupDirectory::fileName("..", std::chrono::system_clock::from_time_t(86400), 1, ".pb.gz"),
            "_..-19700102T000000-000001.pb.gz");
}

TEST(PprofFormat, StartFailsWhenPathIsAFile) {
  TempDir dir;
  Harness h;
  FileExporterConfig c;
  c.path = dir.write("taken", "x");
  c.format = "pprof";
  auto exporter = h.make(c);
  Status s = exporter->start(h.host);
  EXPECT_FALSE(s.isOk());
  EXPECT_THAT(s.message(), HasSubstr("taken"));
}

config::ConfigErrors validate(const std::string& yaml) {
  return ::proflow::testing::checkComponentConfig<void>(*makeFileExporterFactory(), yaml, "exporters.file", nullptr, "test.yaml");
}

TEST(PprofFormat, ConfigRejectsRotationAndAcceptsADirectory) {
  auto errors = validate("path: ./data/pprof\nformat: pprof\nrotation: {max_megabytes: 10}\n");
  EXPECT_THAT(errors.format(), HasSubstr("rotation does not apply to format pprof"));
  EXPECT_THAT(errors.format(), HasSubstr("test.yaml:3:"));
  EXPECT_EQ(errors.size(), 1u) << errors.format();

  errors = validate("path: ./data/pprof\nformat: pprof\nflush_interval: 5s\n");
  EXPECT_TRUE(errors.empty()) << errors.format();

  errors = validate("format: pprof\n");
  EXPECT_THAT(errors.format(), HasSubstr("path is required"));
}

}  // namespace
}  // namespace proflow::exporters::file
