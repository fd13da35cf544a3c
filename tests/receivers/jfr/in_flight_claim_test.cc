// The JFR, folded and Pyroscope receivers claim what decoding will allocate before they decode: a
// small body that would convert far past the receiver's max_in_flight_bytes is refused (413, alone
// over the budget, naming the key) instead of being converted, while the same shapes at a size the
// budget holds are accepted. Over real sockets, in one service.
#include <gtest/gtest.h>

#include <thread>

#include "core/net/http_client.h"
#include "tests/core/formats/jfr/amplifying.h"
#include "tests/receivers/otlp/service_harness.h"
#include "tests/support/daemon.h"

namespace proflow {
namespace {

using namespace std::chrono_literals;

class InFlightClaimTest : public ::testing::Test {
 protected:
  void SetUp() override {
    jfr_ = testing::freePort();
    folded_ = testing::freePort();
    pyroscope_ = testing::freePort();
    // 16 MiB of claims per receiver; bodies of up to 8 MiB.
    const std::string limits = "max_in_flight_bytes: 16MiB, max_request_body_size: 8MiB";
    service_ = testing::startService(
        "receivers:\n"
        "  jfr: { endpoint: 127.0.0.1:" + std::to_string(jfr_) + ", " + limits + " }\n"
        "  folded: { endpoint: 127.0.0.1:" + std::to_string(folded_) + ", " + limits + " }\n"
        "  pyroscope: { endpoint: 127.0.0.1:" + std::to_string(pyroscope_) + ", " + limits +
        ", max_profile_size: 8MiB }\n"
        "exporters: { debug: { verbosity: basic } }\n"
        "service:\n  telemetry: { metrics: { address: \"127.0.0.1:0\" } }\n"
        "  pipelines: { profiles: { receivers: [jfr, folded, pyroscope], exporters: [debug] } }\n");
    ASSERT_TRUE(service_);
  }

  net::HttpResult post(int port, const std::string& target, const std::string& body) {
    return client_.request("POST", "http://127.0.0.1:" + std::to_string(port) + target, {}, body, 60s);
  }

  void expectRefusedAsTooLarge(int port, const std::string& target, const std::string& body, const std::string& what) {
    ASSERT_LT(body.size(), 8u << 20) << what << " must fit the body limit";
    net::HttpResult r = post(port, target, body);
    ASSERT_TRUE(r.status.isOk()) << what << ": " << r.status.toString();
    EXPECT_EQ(r.http_status, 413) << what << " (" << body.size() << " bytes): " << r.body.substr(0, 300);
    EXPECT_NE(r.body.find("max_in_flight_bytes"), std::string::npos) << what << ": " << r.body.substr(0, 300);
  }
  void expectAccepted(int port, const std::string& target, const std::string& body, const std::string& what) {
    // A refused request's claim is released when its connection lets go of it, which may be just
    // after its answer arrived: a 429 then says "retry", as it says to any client.
    net::HttpResult r = post(port, target, body);
    for (int i = 0; i < 100 && r.status.isOk() && r.http_status == 429; ++i) {
      std::this_thread::sleep_for(20ms);
      r = post(port, target, body);
    }
    ASSERT_TRUE(r.status.isOk()) << what << ": " << r.status.toString();
    EXPECT_EQ(r.http_status, 200) << what << " (" << body.size() << " bytes): " << r.body.substr(0, 300);
  }

  int jfr_ = 0, folded_ = 0, pyroscope_ = 0;
  std::unique_ptr<Service> service_;
  net::HttpClient client_{net::HttpClientOptions{}};
};

// About 1 MiB of stack frames, each its own Location: tens of MiB converted.
TEST_F(InFlightClaimTest, AmplifyingRecordingsAreRefusedBeforeConversion) {
  const std::string deep = testing::jfrDistinctDeepStacks(400, 500);
  expectRefusedAsTooLarge(jfr_, "/v1/jfr", deep, "jfr deep distinct stacks");
  expectRefusedAsTooLarge(pyroscope_, "/ingest?name=app&format=jfr", deep, "pyroscope jfr deep distinct stacks");
  const std::string spans = testing::jfrDistinctSpans(60000);
  expectRefusedAsTooLarge(jfr_, "/v1/jfr", spans, "jfr one sample per event");
  const std::string small = testing::jfrDistinctDeepStacks(10, 100);
  expectAccepted(jfr_, "/v1/jfr", small, "jfr small");
  expectAccepted(pyroscope_, "/ingest?name=app&format=jfr", small, "pyroscope jfr small");
}

TEST_F(InFlightClaimTest, AmplifyingFoldedTextIsRefusedBeforeParsing) {
  const std::string text = testing::foldedDistinctFrames(4000, 50);
  expectRefusedAsTooLarge(folded_, "/v1/folded", text, "folded distinct frames");
  expectRefusedAsTooLarge(pyroscope_, "/ingest?name=app.cpu", text, "pyroscope folded distinct frames");
  expectRefusedAsTooLarge(pyroscope_, "/ingest?name=app.cpu&format=lines", text, "pyroscope lines distinct frames");
  const std::string small = testing::foldedDistinctFrames(100, 20);
  expectAccepted(folded_, "/v1/folded", small, "folded small");
  expectAccepted(pyroscope_, "/ingest?name=app.cpu", small, "pyroscope folded small");
}

}  // namespace
}  // namespace proflow
