// Pyroscope's rules applied to a pushed pprof: `from`/`until` stand in for a missing time, and
// sample_type_config units replace the pprof units.
#include <gtest/gtest.h>

#include <limits>

#include "tests/support/dictionary_builder.h"
#include "tests/support/flat_request.h"
#include "core/formats/pprof/pprof_codec.h"
#include "receivers/pyroscope/ingest_converter.h"

namespace proflow::receivers::pyroscope {
namespace {

// alloc_objects/count and alloc_space/bytes, one sample; `time_ns` 0 = unset.
std::string allocProfile(int64_t time_ns) {
  pprof::Profile p;
  for (const char* s : {"", "alloc_objects", "count", "alloc_space", "bytes", "main"}) p.add_string_table(s);
  for (int t : {1, 3}) {
    auto* st = p.add_sample_type();
    st->set_type(t);
    st->set_unit(t + 1);
  }
  auto* f = p.add_function();
  f->set_id(1);
  f->set_name(5);
  auto* l = p.add_location();
  l->set_id(1);
  l->add_line()->set_function_id(1);
  auto* s = p.add_sample();
  s->add_location_id(1);
  s->add_value(2);
  s->add_value(64);
  p.set_time_nanos(time_ns);
  std::string gz;
  EXPECT_TRUE(pprof::encodeProfile(p, &gz).isOk());
  return gz;
}

IngestParams params() {
  IngestParams p;
  p.app_name = "shop";
  p.from_ns = 1'700'000'000'000'000'000;
  p.until_ns = p.from_ns + 10'000'000'000;
  p.format = "pprof";
  return p;
}

// convertIngest into a flat batch, read back as a protobuf request for the checks.
Status convertIngest(const IngestParams& p, std::string_view content_type, std::string_view body,
                     const ConvertOptions& options, otlp::Request* out) {
  flat::Batch batch;
  if (Status s = ::proflow::receivers::pyroscope::convertIngest(p, content_type, body, options, &batch); !s.isOk())
    return s;
  return flat::toRequest(batch, out);
}

const otlp::ScopeProfiles& onlyScope(const otlp::Request& r) { return r.resource_profiles(0).scope_profiles(0); }

TEST(PyroscopeIngestConverter, FromAndUntilStandInForAMissingTime) {
  otlp::Request out;
  ASSERT_TRUE(convertIngest(params(), "", allocProfile(0), {}, &out).isOk());
  ASSERT_EQ(onlyScope(out).profiles_size(), 2);
  for (const auto& prof : onlyScope(out).profiles()) {
    EXPECT_EQ(prof.time_unix_nano(), static_cast<uint64_t>(params().from_ns));
    EXPECT_EQ(prof.duration_nano(), 10'000'000'000u);
  }
  otlp::Request kept;
  const int64_t real = 1'750'000'000'000'000'000;
  ASSERT_TRUE(convertIngest(params(), "", allocProfile(real), {}, &kept).isOk());
  EXPECT_EQ(onlyScope(kept).profiles(1).time_unix_nano(), static_cast<uint64_t>(real));
}

// A window from 1700 to today is longer than int64 nanoseconds hold: its duration saturates instead
// of overflowing (to zero or a negative number).
TEST(PyroscopeIngestConverter, AWindowLongerThanInt64NanosecondsSaturates) {
  IngestParams p = params();
  p.format = "folded";
  p.from_ns = -8'518'435'200'000'000'000;  // 1700-01-23
  otlp::Request out;
  ASSERT_TRUE(convertIngest(p, "", "main;work 10\n", {}, &out).isOk());
  ASSERT_EQ(onlyScope(out).profiles_size(), 1);
  EXPECT_EQ(onlyScope(out).profiles(0).duration_nano(), static_cast<uint64_t>(std::numeric_limits<int64_t>::max()));
}

TEST(PyroscopeIngestConverter, SampleTypeConfigUnitsReplaceThePprofUnits) {
  const std::string boundary = "b0undary";
  std::string body = "--" + boundary + "\r\nContent-Disposition: form-data; name=\"profile\"; filename=\"p.pb.gz\"\r\n"
                     "Content-Type: application/octet-stream\r\n\r\n" + allocProfile(0) + "\r\n--" + boundary +
                     "\r\nContent-Disposition: form-data; name=\"sample_type_config\"; filename=\"c.json\"\r\n\r\n"
                     R"({"alloc_space": {"units": "kilobytes", "display-name": "allocated_memory"}})" "\r\n--" +
                     boundary + "--\r\n";
  IngestParams p = params();
  p.format = "";
  otlp::Request out;
  auto st = convertIngest(p, "multipart/form-data; boundary=" + boundary, body, {}, &out);
  ASSERT_TRUE(st.isOk()) << st.toString();
  const auto& d = out.dictionary();
  const auto& scope = onlyScope(out);
  ASSERT_EQ(scope.profiles_size(), 2);
  EXPECT_EQ(dictString(d, scope.profiles(0).sample_type().unit_strindex()), "count");      // not configured
  EXPECT_EQ(dictString(d, scope.profiles(1).sample_type().unit_strindex()), "kilobytes");  // configured
}

}  // namespace
}  // namespace proflow::receivers::pyroscope
