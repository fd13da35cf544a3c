#include <gmock/gmock.h>
#include <google/protobuf/util/message_differencer.h>
#include <gtest/gtest.h>

#include <sstream>

#include "tests/support/dictionary_builder.h"
#include "tests/support/otlp_json_protobuf.h"
#include "tests/exporters/file/test_util.h"
#include "tests/support/profile_builder.h"
#include "tests/support/temp_dir.h"
#include "tests/support/flat_request.h"

namespace proflow::exporters::file {
namespace {

using ::google::protobuf::util::MessageDifferencer;
using ::proflow::testing::makeProfile;
using ::proflow::testing::makeRequest;
using ::proflow::testing::readFile;
using ::proflow::testing::TempDir;
using ::testing::HasSubstr;

// A request that exercises the OTLP JSON rules: a link (hex ids), a profile id, 64-bit values.
otlp::Request withLinkAndIds() {
  otlp::Request r = makeRequest("linked", {makeProfile(2)});
  DictionaryBuilder d(r.mutable_dictionary());
  const std::string trace(16, '\xab'), span(8, '\x01');
  auto* p = r.mutable_resource_profiles(0)->mutable_scope_profiles(0)->mutable_profiles(0);
  p->mutable_samples(0)->set_link_index(d.link(trace, span));
  p->set_profile_id(std::string(16, '\x42'));
  p->mutable_samples(1)->set_values(0, int64_t{1} << 40);
  return r;
}

// `json` is the Collector file exporter's name (and default) of the same format.
class FileExporterJson : public ::testing::TestWithParam<const char*> {};
INSTANTIATE_TEST_SUITE_P(Names, FileExporterJson, ::testing::Values("otlp_json", "json"));

TEST_P(FileExporterJson, OneProfilesDataPerLineReadBackFieldByField) {
  TempDir dir;
  Harness h;
  FileExporterConfig c;
  c.path = dir.file("profiles.jsonl");
  c.format = GetParam();
  auto e = h.make(c);
  ASSERT_NE(makeEncoder(c.format), nullptr) << c.format << " encoder missing from this build";
  ASSERT_TRUE(e->start(h.host).isOk());
  std::vector<otlp::Request> sent = {withLinkAndIds(), makeRequest("plain", {makeProfile(3, 1), makeProfile(1, 2)})};
  for (const auto& r : sent) ASSERT_TRUE(e->consume(::proflow::testing::batchOf(otlp::Request(r))).isOk());
  e->shutdown(Deadline::clock::now());

  const std::string text = readFile(c.path);
  // OTLP JSON spelling: lowerCamelCase keys, hex ids, 64-bit integers as strings.
  EXPECT_THAT(text, HasSubstr("\"resourceProfiles\""));
  EXPECT_THAT(text, HasSubstr("\"traceId\":\"abababababababababababababababab\""));
  EXPECT_THAT(text, HasSubstr("\"spanId\":\"0101010101010101\""));
  EXPECT_THAT(text, HasSubstr("\"1099511627776\""));

  std::istringstream in(text);
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  ASSERT_EQ(lines.size(), sent.size());
  for (size_t i = 0; i < lines.size(); ++i) {
    otlp::pb::ProfilesData got;  // the file holds ProfilesData objects
    Status s = otlp_json_pb::parseOtlpJson(lines[i], &got);
    ASSERT_TRUE(s.isOk()) << "line " << i << ": " << s.toString();
    otlp::Request as_request;
    ASSERT_TRUE(as_request.ParseFromString(got.SerializeAsString()));
    std::string diff;
    MessageDifferencer d;
    d.ReportDifferencesToString(&diff);
    EXPECT_TRUE(d.Compare(sent[i], as_request)) << "line " << i << ": " << diff;
  }
  EXPECT_EQ(h.metric("proflow_exporter_bytes_out_total"), static_cast<double>(text.size()));
}

}  // namespace
}  // namespace proflow::exporters::file
