// Bounds of the push listener against amplification: a small pprof that would convert into a huge
// OTLP request is refused before conversion, by its sample-type count or by what conversion would
// hold against the receiver's in-flight budget; query parameters that would become invalid OTLP
// strings are refused; and the receiver keeps serving.
#include <gtest/gtest.h>

#include "core/formats/pprof/pprof_codec.h"
#include "tests/core/net/http_test_util.h"
#include "tests/receivers/pprof/harness.h"

namespace proflow::receivers::pprof {
namespace {

// A valid pprof: one function and location, `samples` samples each with one value per sample type.
std::string makePprof(int sample_types, int samples) {
  ::proflow::pprof::Profile p;
  p.add_string_table("");
  p.add_string_table("main");
  p.add_string_table("count");
  for (int t = 0; t < sample_types; ++t) {
    p.add_string_table("type" + std::to_string(t));
    auto* vt = p.add_sample_type();
    vt->set_type(3 + t);
    vt->set_unit(2);
  }
  auto* f = p.add_function();
  f->set_id(1);
  f->set_name(1);
  auto* l = p.add_location();
  l->set_id(1);
  l->add_line()->set_function_id(1);
  for (int i = 0; i < samples; ++i) {
    auto* s = p.add_sample();
    s->add_location_id(1);
    for (int t = 0; t < sample_types; ++t) s->add_value(i + t + 1);
  }
  return p.SerializeAsString();
}

class PprofPushLimitsTest : public ::testing::Test {
 protected:
  void start(PprofReceiverConfig c) {
    c.endpoint = "127.0.0.1:0";
    receiver_ = h_.make(c);
    ASSERT_TRUE(receiver_->start(h_.host).isOk());
  }
  void TearDown() override {
    if (receiver_) receiver_->shutdown(std::chrono::steady_clock::now() + std::chrono::seconds(5));
  }
  net::testing::RawResponse push(const std::string& body, const std::string& target = "/v1/pprof") {
    net::testing::RawConn c(static_cast<uint16_t>(receiver_->pushPort()));
    c.send(net::testing::post(target, body));
    auto r = c.read();
    EXPECT_TRUE(r);
    return r ? *r : net::testing::RawResponse{};
  }

  Harness h_;
  std::unique_ptr<PprofReceiver> receiver_;
};

TEST_F(PprofPushLimitsTest, ThousandsOfSampleTypesAre413NamingTheLimit) {
  start({});
  auto r = push(makePprof(5000, 10));
  EXPECT_EQ(r.status, 413);
  EXPECT_NE(r.body.find("sample type count 5000"), std::string::npos) << r.body;
  EXPECT_NE(r.body.find("max_sample_types"), std::string::npos) << r.body;
  EXPECT_TRUE(h_.sink->batches().empty());
  EXPECT_EQ(push(makePprof(4, 10)).status, 200);  // a Go heap profile's shape still passes
}

// Query parameters become resource attributes, which OTLP requires to be UTF-8: accepted, one would
// make the next OTLP hop refuse the whole request it is batched into.
TEST_F(PprofPushLimitsTest, QueryParametersThatAreNotUtf8Are400NamingTheParameter) {
  start({});
  auto bad_value = push(makePprof(1, 3), "/v1/pprof?env=dev&service.name=%FF%FE");
  EXPECT_EQ(bad_value.status, 400);
  EXPECT_NE(bad_value.body.find("'service.name' is not valid UTF-8"), std::string::npos) << bad_value.body;
  auto bad_name = push(makePprof(1, 3), "/v1/pprof?team%C3=payments");
  EXPECT_EQ(bad_name.status, 400);
  EXPECT_NE(bad_name.body.find("name 'team\xEF\xBF\xBD' is not valid UTF-8"), std::string::npos) << bad_name.body;
  EXPECT_TRUE(h_.sink->batches().empty());
  EXPECT_EQ(h_.metric("proflow_receiver_refused_batches_total"), 2);
  EXPECT_EQ(push(makePprof(1, 3), "/v1/pprof?service.name=caf%C3%A9").status, 200);
  EXPECT_EQ(h_.sink->batches().size(), 1u);
}

TEST_F(PprofPushLimitsTest, ConversionBeyondTheInFlightBudgetIsRefusedBeforeItAllocates) {
  PprofReceiverConfig c;
  c.max_request_body_size = config::ByteSize(512u << 10);
  c.server_limits.max_in_flight_bytes = config::ByteSize(1u << 20);
  start(c);
  // ~300 KB of pprof, but 60 x 2,000 = 120,000 OTLP samples: far more than 1 MiB once converted.
  std::string body = makePprof(60, 2000);
  ASSERT_LT(body.size(), c.max_request_body_size.bytes);
  auto r = push(body);
  EXPECT_EQ(r.status, 413);
  EXPECT_NE(r.body.find("decoded profile"), std::string::npos) << r.body;
  EXPECT_NE(r.body.find("max_in_flight_bytes"), std::string::npos) << r.body;
  EXPECT_TRUE(h_.sink->batches().empty());
  EXPECT_EQ(push(makePprof(2, 100)).status, 200);  // and the receiver keeps serving
}

}  // namespace
}  // namespace proflow::receivers::pprof
