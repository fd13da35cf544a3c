// The `nats` exporter against a real nats-server with JetStream: config errors, what a message
// holds, acknowledged publishes, a full stream refused (retryable), and a broker restart.
#include <gtest/gtest.h>

#include "core/exporterhelper/exporter_helper.h"
#include "core/flat/flat_decode.h"
#include "exporters/nats/factory.h"
#include "exporters/nats/nats_sender.h"
#include "tests/brokers/component_harness.h"
#include "tests/brokers/nats_client.h"
#include "tests/brokers/nats_server.h"
#include "tests/support/component_config.h"
#include "tests/support/daemon.h"
#include "tests/support/flat_request.h"

namespace proflow {
namespace {

using exporters::nats::NatsExporterConfig;

// Two resources (services a and b, tenants t1 and t2) sharing one dictionary.
otlp::Request twoTenants() {
  otlp::Request r = testing::makeRequest("a", {testing::makeProfile(3)});
  r.add_resource_profiles()->CopyFrom(r.resource_profiles(0));
  for (int i = 0; i < 2; ++i) {
    auto* attrs = r.mutable_resource_profiles(i)->mutable_resource()->mutable_attributes();
    for (auto& kv : *attrs)
      if (kv.key() == "service.name") kv.mutable_value()->set_string_value(i == 0 ? "a" : "b");
    auto* t = attrs->Add();
    t->set_key("tenant.id");
    t->mutable_value()->set_string_value(i == 0 ? "t1" : "t2");
  }
  return r;
}

std::unique_ptr<exporterhelper::ExporterHelper> makeExporter(testing::ComponentHarness& h, NatsExporterConfig c) {
  c.helper.sending_queue.enabled = false;
  c.helper.retry_on_failure.enabled = false;
  c.helper.timeout = std::chrono::seconds(2);
  auto e = std::make_unique<exporterhelper::ExporterHelper>(h.settings, c.helper,
                                                           std::make_unique<exporters::nats::NatsSender>(h.settings, c));
  EXPECT_TRUE(e->start(h.host).isOk());
  return e;
}

TEST(NatsExporterConfig, ListsEveryErrorWithItsLocation) {
  auto factory = exporters::nats::makeNatsExporterFactory();
  auto errors = testing::checkComponentConfig(*factory, R"(
url: http://127.0.0.1:4222
stream: bad.name
subject: profiles.>
encoding: protobuf
storage: disk
username: only-user
)", "exporters.nats");
  const std::string text = errors.format();
  for (const char* key : {"exporters.nats.url", "exporters.nats.stream", "exporters.nats.subject",
                          "exporters.nats.encoding", "exporters.nats.storage", "exporters.nats.username"})
    EXPECT_NE(text.find(key), std::string::npos) << key << " missing in:\n" << text;
  EXPECT_NE(text.find("t.yaml:3:"), std::string::npos) << text;  // file:line of `stream`
  EXPECT_TRUE(testing::checkComponentConfig(*factory, "url: nats://n:4222\ncreate_stream: true\n", "exporters.nats").empty());
}

TEST(NatsExporterEncode, OneMessagePerTenantAndServiceWithHeaders) {
  NatsExporterConfig c;
  std::vector<exporters::nats::NatsMessage> messages;
  ASSERT_TRUE(exporters::nats::encodeMessages(c, ::proflow::testing::batchOf(twoTenants()).data(), &messages).isOk());
  ASSERT_EQ(messages.size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    std::map<std::string, std::string> h(messages[i].headers.begin(), messages[i].headers.end());
    EXPECT_EQ(h["proflow-tenant"], i == 0 ? "t1" : "t2");
    EXPECT_EQ(h["proflow-service"], i == 0 ? "a" : "b");
    EXPECT_EQ(h["proflow-encoding"], "otlp_proto");
    otlp::Request back;
    ASSERT_TRUE(back.ParseFromString(messages[i].body));
    ASSERT_EQ(back.resource_profiles_size(), 1);
    EXPECT_EQ(testing::serviceName(back, 0), i == 0 ? "a" : "b");
  }
  c.max_message_bytes = config::ByteSize(16);
  messages.clear();
  EXPECT_EQ(exporters::nats::encodeMessages(c, ::proflow::testing::batchOf(twoTenants()).data(), &messages).code(), StatusCode::kPayloadTooLarge);
}

TEST(NatsExporter, PublishesAcknowledgedMessagesIntoTheStream) {
  testing::NatsServer server;
  ASSERT_TRUE(server.ok());
  testing::ComponentHarness h(ComponentKind::kExporter, "nats");
  NatsExporterConfig c;
  c.connection.url = server.url();
  c.create_stream = true;
  c.encoding = "otlp_json";
  auto e = makeExporter(h, c);
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(e->consume(testing::numbered("svc-" + std::to_string(i))).isOk());
  // Acknowledged means stored: the stream holds them the moment consume() returned.
  testing::NatsClient client(server.url());
  EXPECT_EQ(client.streamMessages("PROFILES"), 3u);
  testing::NatsClient::Message m;
  ASSERT_TRUE(client.get("PROFILES", 2, {"proflow-service", "proflow-encoding"}, &m));
  EXPECT_EQ(m.headers, (std::vector<std::pair<std::string, std::string>>{{"proflow-service", "svc-1"},
                                                                          {"proflow-encoding", "otlp_json"}}));
  EXPECT_EQ(m.data.front(), '{');
  e->shutdown(std::chrono::steady_clock::now() + std::chrono::seconds(2));
}

TEST(NatsExporter, AFullStreamRefusesRetryably) {
  testing::NatsServer server;
  ASSERT_TRUE(server.ok());
  testing::ComponentHarness h(ComponentKind::kExporter, "nats");
  NatsExporterConfig c;
  c.connection.url = server.url();
  c.create_stream = true;
  c.max_bytes = config::ByteSize(4096);
  auto e = makeExporter(h, c);
  Status last;
  for (int i = 0; i < 100 && last.isOk(); ++i) last = e->consume(testing::numbered("svc-" + std::to_string(i), 20));
  EXPECT_EQ(last.code(), StatusCode::kResourceExhausted) << last.toString();
  EXPECT_TRUE(last.retryable());
  e->shutdown(std::chrono::steady_clock::now() + std::chrono::seconds(2));
}

// The defaults (stream PROFILES, subject profiles.otlp, no create_stream) against `server`.
NatsExporterConfig withoutStreamCreation(const testing::NatsServer& server) {
  NatsExporterConfig c;
  c.connection.url = server.url();
  return c;
}

// Without create_stream and with no stream taking the subject, the error says what is missing and
// how to fix it (the client library's own word for it is "JetStream not enabled", error 10076).
TEST(NatsExporter, NoStreamForTheSubjectNamesTheFix) {
  testing::NatsServer server;
  ASSERT_TRUE(server.ok());
  testing::ComponentHarness h(ComponentKind::kExporter, "nats");
  auto e = makeExporter(h, withoutStreamCreation(server));
  const Status s = e->consume(testing::numbered("svc"));
  EXPECT_FALSE(s.isOk());
  EXPECT_TRUE(s.retryable()) << s.toString();  // the stream may be created while the data waits
  EXPECT_NE(s.message().find("no JetStream stream captures this subject"), std::string::npos) << s.toString();
  EXPECT_NE(s.message().find("set create_stream: true, or create stream 'PROFILES' with subject 'profiles.otlp'"),
            std::string::npos) << s.toString();
  EXPECT_EQ(s.message().find("JetStream error"), std::string::npos) << s.toString();

  // Once the stream exists, the same exporter publishes.
  testing::NatsClient client(server.url());
  ASSERT_TRUE(client.addStream("PROFILES", "profiles.otlp"));
  EXPECT_TRUE(e->consume(testing::numbered("svc")).isOk());
  e->shutdown(std::chrono::steady_clock::now() + std::chrono::seconds(2));
}

TEST(NatsExporter, ASubjectOfAnotherStreamIsNamedAsSuch) {
  testing::NatsServer server;
  ASSERT_TRUE(server.ok());
  testing::NatsClient client(server.url());
  ASSERT_TRUE(client.addStream("OTHER", "profiles.otlp"));
  testing::ComponentHarness h(ComponentKind::kExporter, "nats");
  auto e = makeExporter(h, withoutStreamCreation(server));
  const Status s = e->consume(testing::numbered("svc"));
  EXPECT_FALSE(s.isOk());
  EXPECT_NE(s.message().find("captured by another stream than 'PROFILES'"), std::string::npos) << s.toString();
  EXPECT_EQ(client.streamMessages("OTHER"), 0u);
  e->shutdown(std::chrono::steady_clock::now() + std::chrono::seconds(2));
}

TEST(NatsExporter, BrokerDownIsRetryableAndReconnectsWhenItReturns) {
  testing::NatsServer server;
  ASSERT_TRUE(server.ok());
  testing::ComponentHarness h(ComponentKind::kExporter, "nats");
  NatsExporterConfig c;
  c.connection.url = server.url();
  c.connection.reconnect_wait = std::chrono::milliseconds(100);
  c.create_stream = true;
  auto e = makeExporter(h, c);
  ASSERT_TRUE(e->consume(testing::numbered("before")).isOk());
  server.kill();
  Status down = e->consume(testing::numbered("while-down"));
  EXPECT_FALSE(down.isOk());
  EXPECT_TRUE(down.retryable()) << down.toString();
  ASSERT_TRUE(server.start());  // same port and store
  EXPECT_TRUE(testing::waitFor([&] { return e->consume(testing::numbered("after")).isOk(); }, std::chrono::seconds(15)));
  testing::NatsClient client(server.url());
  EXPECT_GE(client.streamMessages("PROFILES"), 2u);  // the first survived the restart (file storage)
  e->shutdown(std::chrono::steady_clock::now() + std::chrono::seconds(2));
}

}  // namespace
}  // namespace proflow
