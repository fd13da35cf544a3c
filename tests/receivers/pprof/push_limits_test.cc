// Bounds of the push listener against amplification: a small pprof that would convert into a huge
// OTLP request is refused before conversion, by its sample-type count or by what conversion would
// hold against the receiver's in-flight budget; and the receiver keeps serving.
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
  net::testing::RawResponse push(const std::string& body) {
    net::testing::RawConn c(static_cast<uint16_t>(receiver_->pushPort()));
    c.send(net::testing::post("/v1/pprof", body));
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
