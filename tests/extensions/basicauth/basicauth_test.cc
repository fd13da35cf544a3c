// basicauth on its own: htpasswd formats and the Basic header on both sides.
#include <crypt.h>
#include <gtest/gtest.h>
#include <spdlog/spdlog.h>

#include <future>
#include <thread>

#include "extensions/basicauth/base64.h"
#include "extensions/basicauth/basic_auth.h"
#include "extensions/basicauth/check_queue.h"
#include "extensions/basicauth/htpasswd.h"
#include "extensions/basicauth/password_book.h"
#include "extensions/basicauth/verified_credentials.h"
#include <openssl/evp.h>

namespace proflow::extensions::basicauth {
namespace {

class NoHost : public Host {
 public:
  void reportFatalError(const ComponentId&, const Status&) override {}
};

std::string hashWith(const std::string& prefix, const std::string& password) {
  char setting[CRYPT_GENSALT_OUTPUT_SIZE];
  // Cost 4 keeps bcrypt fast in tests; the other methods take their default (0).
  const unsigned long cost = prefix.rfind("$2", 0) == 0 ? 4 : 0;
  EXPECT_NE(crypt_gensalt_rn(prefix.c_str(), cost, nullptr, 0, setting, sizeof setting), nullptr);
  struct crypt_data data {};
  return crypt_r(password.c_str(), setting, &data);
}

auth::HeaderLookup headers(std::map<std::string, std::string> h) {
  return [h = std::move(h)](std::string_view name) -> std::optional<std::string_view> {
    auto it = h.find(std::string(name));
    if (it == h.end()) return std::nullopt;
    return std::string_view(it->second);
  };
}

std::string basic(const std::string& user, const std::string& password) {
  return "Basic " + base64Encode(user + ":" + password);
}

TEST(Htpasswd, Apr1MatchesOpensslPasswd) {
  // `openssl passwd -apr1 -salt 0rxVTKzz 's3cret pass'` and `-salt ab x`.
  EXPECT_EQ(apr1Crypt("s3cret pass", "0rxVTKzz"), "$apr1$0rxVTKzz$5CBrHkpc4Bn2xhD2R43Dl0");
  EXPECT_EQ(apr1Crypt("x", "ab"), "$apr1$ab$eIePjsejfBGR8ITtu2z0U1");
}

TEST(Htpasswd, VerifiesEveryHashFormat) {
  const std::string sha = "{SHA}87u9ZqY9S/F0eUBXjsPQEDUw4h0=";  // htpasswd -s, password hunter2
  EXPECT_TRUE(verifyPassword("hunter2", sha));
  EXPECT_FALSE(verifyPassword("hunter3", sha));
  EXPECT_TRUE(verifyPassword("s3cret pass", "$apr1$0rxVTKzz$5CBrHkpc4Bn2xhD2R43Dl0"));
  EXPECT_FALSE(verifyPassword("s3cret pasS", "$apr1$0rxVTKzz$5CBrHkpc4Bn2xhD2R43Dl0"));
  EXPECT_TRUE(verifyPassword("pw", "abzlUXK5ed5rs"));  // DES crypt (htpasswd -d), salt "ab"
  EXPECT_FALSE(verifyPassword("px", "abzlUXK5ed5rs"));
  for (const char* prefix : {"$2b$", "$2y$", "$2a$", "$6$", "$5$", "$1$"}) {
    SCOPED_TRACE(prefix);
    const std::string hash = hashWith(prefix, "pw-" + std::string(prefix));
    ASSERT_EQ(hash.rfind(prefix, 0), 0u) << hash;
    EXPECT_TRUE(verifyPassword("pw-" + std::string(prefix), hash));
    EXPECT_FALSE(verifyPassword("wrong", hash));
  }
}

TEST(Htpasswd, RefusesPlainTextAndMalformedLinesNamingTheLine) {
  std::map<std::string, std::string> users;
  Status s = parseHtpasswd("# comment\n\nalice:{SHA}87u9ZqY9S/F0eUBXjsPQEDUw4h0=\nbob:plaintext\n", "users.htpasswd", &users);
  ASSERT_FALSE(s.isOk());
  EXPECT_NE(s.message().find("users.htpasswd:4"), std::string::npos) << s.message();
  EXPECT_EQ(s.message().find("plaintext"), std::string::npos) << "the hash must not be echoed: " << s.message();
  EXPECT_FALSE(parseHtpasswd("no-colon\n", "f", &users).isOk());
}

TEST(BasicAuthServer, AcceptsKnownUsersOnly) {
  CreateSettings settings{{"basicauth", ""}, ComponentKind::kExtension, spdlog::default_logger(), nullptr, nullptr};
  HtpasswdConfig cfg;
  cfg.inline_entries = "alice:" + hashWith("$2y$", "wonderland") + "\nbob:{SHA}87u9ZqY9S/F0eUBXjsPQEDUw4h0=\n";
  BasicAuthServer server(settings, cfg);
  NoHost host;
  ASSERT_TRUE(server.start(host).isOk());
  EXPECT_TRUE(server.authenticate(headers({{"authorization", basic("alice", "wonderland")}})).isOk());
  // Second time from the verified cache, same answer.
  EXPECT_TRUE(server.authenticate(headers({{"authorization", basic("alice", "wonderland")}})).isOk());
  EXPECT_TRUE(server.authenticate(headers({{"authorization", basic("bob", "hunter2")}})).isOk());
  for (const auto& bad : {basic("alice", "wonderlanD"), basic("carol", "hunter2"), std::string("Basic !!!"),
                          std::string("Bearer abc"), "Basic " + base64Encode("no-colon")}) {
    Status s = server.authenticate(headers({{"authorization", bad}}));
    EXPECT_EQ(s.code(), StatusCode::kUnauthenticated) << bad;
    EXPECT_EQ(s.message().find("wonderlan"), std::string::npos) << "password echoed: " << s.message();
  }
  EXPECT_EQ(server.authenticate(headers({})).code(), StatusCode::kUnauthenticated);
  EXPECT_NE(server.challenge().find("Basic"), std::string::npos);
}

// crypt(3) stops at a NUL: the right password followed by a NUL and anything must not pass.
TEST(Htpasswd, APasswordWithANulByteIsRefused) {
  const std::string hash = hashWith("$2y$", "wonderland");
  ASSERT_TRUE(verifyPassword("wonderland", hash));
  EXPECT_FALSE(verifyPassword(std::string("wonderland\0", 11), hash));
  EXPECT_FALSE(verifyPassword(std::string("wonderland\0anything", 19), hash));
  EXPECT_FALSE(verifyPassword(std::string("hunter2\0x", 9), "{SHA}87u9ZqY9S/F0eUBXjsPQEDUw4h0="));
}

TEST(Htpasswd, HashFormatKeepsTheCostParameter) {
  const std::pair<std::string, std::string> hash_and_format[] = {
      {"$2y$10$abcdefghijklmnopqrstuv", "$2y$10$"},   {"$6$rounds=9000$salt$hash", "$6$rounds=9000$"},
      {"$6$salt$hash", "$6$"},                         {"$apr1$0rxVTKzz$5CBrHkpc4Bn2xhD2R43Dl0", "$apr1$"},
      {"{SHA}87u9ZqY9S/F0eUBXjsPQEDUw4h0=", "{SHA}"}, {"abzlUXK5ed5rs", ""}};
  for (const auto& [hash, format] : hash_and_format) EXPECT_EQ(hashFormat(hash), format) << hash;
}

// An unknown user's password is checked against the slowest entry (here bcrypt, not {SHA} or
// APR1), so a refusal takes as long whether the name exists or not.
TEST(Htpasswd, UnknownUsersAreCheckedAgainstTheSlowestFormat) {
  char setting[CRYPT_GENSALT_OUTPUT_SIZE];
  ASSERT_NE(crypt_gensalt_rn("$2y$", 10, nullptr, 0, setting, sizeof setting), nullptr);
  struct crypt_data data {};
  const std::string bcrypt10 = crypt_r("pw", setting, &data);
  const std::map<std::string, std::string> users = {{"a", "{SHA}87u9ZqY9S/F0eUBXjsPQEDUw4h0="},
                                                    {"b", bcrypt10},
                                                    {"c", "$apr1$0rxVTKzz$5CBrHkpc4Bn2xhD2R43Dl0"}};
  EXPECT_EQ(slowestHash(users), bcrypt10);
}

CreateSettings serverSettings() {
  return {{"basicauth", ""}, ComponentKind::kExtension, spdlog::default_logger(), nullptr, nullptr};
}

// Hashes run on the extension's check thread, not on the caller's (an I/O thread); a credential
// verified before is answered at once, on the caller's thread.
TEST(BasicAuthServer, PasswordChecksRunOffTheCallingThread) {
  HtpasswdConfig cfg;
  cfg.inline_entries = "alice:" + hashWith("$2y$", "wonderland") + "\n";
  BasicAuthServer server(serverSettings(), cfg);
  NoHost host;
  ASSERT_TRUE(server.start(host).isOk());
  // The answer and the thread it came from.
  auto check = [&](const std::string& user, const std::string& password) {
    std::promise<std::pair<Status, std::thread::id>> answer;
    server.authenticateAsync(headers({{"authorization", basic(user, password)}}), "10.0.0.1",
                             [&](Status s) { answer.set_value({s, std::this_thread::get_id()}); });
    return answer.get_future().get();
  };
  auto [first, first_thread] = check("alice", "wonderland");
  EXPECT_TRUE(first.isOk());
  EXPECT_NE(first_thread, std::this_thread::get_id());
  auto [again, again_thread] = check("alice", "wonderland");
  EXPECT_TRUE(again.isOk());
  EXPECT_EQ(again_thread, std::this_thread::get_id());
  for (const auto& [user, password] : {std::pair<std::string, std::string>{"alice", "wrong"}, {"nobody", "wonderland"},
                                       {"alice", std::string("wonderland\0x", 12)}}) {
    auto [s, thread] = check(user, password);
    EXPECT_EQ(s.code(), StatusCode::kUnauthenticated) << user;
    EXPECT_NE(thread, std::this_thread::get_id()) << user << ": hashed like a known user";
  }
  // A malformed header needs no hash: answered at once.
  auto [malformed, malformed_thread] = [&] {
    std::pair<Status, std::thread::id> out;
    server.authenticateAsync(headers({{"authorization", "Basic !!!"}}), "10.0.0.1",
                             [&](Status s) { out = {s, std::this_thread::get_id()}; });
    return out;
  }();
  EXPECT_EQ(malformed.code(), StatusCode::kUnauthenticated);
  EXPECT_EQ(malformed_thread, std::this_thread::get_id());
  server.shutdown({});
}

// A server destroyed without shutdown while a check is still hashing: the check finishes (and records
// the verified credential) before the state it writes is destroyed. Bob's hash is slow on purpose so
// that his check is running, not queued, when the destructor starts; Alice's verified credential
// makes the map it writes into non-empty, so a write after its destruction would follow freed nodes.
TEST(BasicAuthServer, DestroyedWhileACheckRunsWithoutShutdown) {
  char setting[CRYPT_GENSALT_OUTPUT_SIZE];
  ASSERT_NE(crypt_gensalt_rn("$2y$", 12, nullptr, 0, setting, sizeof setting), nullptr);
  struct crypt_data data {};
  const std::string slow_hash = crypt_r("builder", setting, &data);
  HtpasswdConfig cfg;
  cfg.inline_entries = "alice:" + hashWith("$2y$", "wonderland") + "\nbob:" + slow_hash + "\n";
  auto server = std::make_unique<BasicAuthServer>(serverSettings(), cfg);
  NoHost host;
  ASSERT_TRUE(server->start(host).isOk());
  std::promise<Status> alice;
  server->authenticateAsync(headers({{"authorization", basic("alice", "wonderland")}}), "10.0.0.1",
                            [&](Status s) { alice.set_value(s); });
  ASSERT_TRUE(alice.get_future().get().isOk());
  // A check that holds the queue until released, then Bob's, which starts as soon as it is let go.
  std::promise<void> release;
  std::promise<void> holding;
  server->authenticateAsync(headers({{"authorization", basic("alice", "wrong")}}), "10.0.0.1", [&](Status) {
    holding.set_value();
    release.get_future().wait();
  });
  std::promise<Status> bob;
  server->authenticateAsync(headers({{"authorization", basic("bob", "builder")}}), "10.0.0.2",
                            [&](Status s) { bob.set_value(s); });
  holding.get_future().wait();
  release.set_value();
  // Lets Bob's check leave the queue (his hash takes far longer): destroyed while it runs. Should it
  // not have left yet, stop() answers it UNAVAILABLE instead, which the test accepts too.
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  server.reset();
  auto answer = bob.get_future();
  ASSERT_EQ(answer.wait_for(std::chrono::seconds(0)), std::future_status::ready) << "every check is answered";
  const Status s = answer.get();
  EXPECT_TRUE(s.isOk() || s.code() == StatusCode::kUnavailable) << s.message();
}

TEST(CheckQueue, RefusesBeyondItsCapacityAndAnswersWhatItDidNotRunAtStop) {
  CheckQueue queue(1, 2);
  std::promise<void> release, started;
  ASSERT_TRUE(queue.trySubmit("a", [&](bool run) {
    EXPECT_TRUE(run);
    started.set_value();
    release.get_future().wait();
  }));
  started.get_future().wait();
  std::promise<bool> second_ran;
  ASSERT_TRUE(queue.trySubmit("a", [&](bool run) { second_ran.set_value(run); }));
  EXPECT_FALSE(queue.trySubmit("a", [](bool) { ADD_FAILURE() << "a refused task must not be kept"; }));
  EXPECT_FALSE(queue.trySubmit("b", [](bool) { ADD_FAILURE() << "no client has more waiting than b would"; }));
  std::thread stopper([&] { queue.stop(); });
  auto second = second_ran.get_future();
  EXPECT_FALSE(second.get());  // answered by stop() without running
  release.set_value();
  stopper.join();
  EXPECT_FALSE(queue.trySubmit("a", [](bool) {}));
}

// A wrong password for a user with a fast entry ({SHA}) is also checked against the slowest entry,
// as an unknown user's is: a refusal costs a slow check either way, so its time does not tell
// whether the user exists. A right password is not slowed down.
TEST(PasswordBook, EveryRefusalIsCheckedAgainstTheSlowestEntry) {
  char setting[CRYPT_GENSALT_OUTPUT_SIZE];
  ASSERT_NE(crypt_gensalt_rn("$2y$", 10, nullptr, 0, setting, sizeof setting), nullptr);
  struct crypt_data data {};
  const std::string bcrypt10 = crypt_r("wonderland", setting, &data);
  const std::string sha = "{SHA}87u9ZqY9S/F0eUBXjsPQEDUw4h0=";  // hunter2
  PasswordBook book({{"alice", bcrypt10}, {"bob", sha}});
  std::vector<std::string> checked;
  const PasswordBook::Verifier recording = [&](std::string_view password, const std::string& hash) {
    checked.push_back(hash);
    return verifyPassword(password, hash);
  };
  EXPECT_FALSE(book.check("bob", "wrong", recording));
  EXPECT_EQ(checked, (std::vector<std::string>{sha, bcrypt10})) << "a {SHA} refusal costs a bcrypt check too";
  checked.clear();
  EXPECT_FALSE(book.check("nobody", "wrong", recording));
  EXPECT_EQ(checked, std::vector<std::string>{bcrypt10});
  checked.clear();
  EXPECT_FALSE(book.check("alice", "wrong", recording));
  EXPECT_EQ(checked, std::vector<std::string>{bcrypt10}) << "already the slowest: checked once";
  checked.clear();
  EXPECT_TRUE(book.check("bob", "hunter2", recording));
  EXPECT_EQ(checked, std::vector<std::string>{sha});
}

// What is remembered of a verified password cannot be checked against guesses by whoever reads the
// process's memory: it is keyed by a random secret of the instance, not a plain hash.
TEST(VerifiedCredentials, RemembersKeyedDigestsOnly) {
  VerifiedCredentials first, second;
  first.remember("alice", "wonderland");
  second.remember("alice", "wonderland");
  EXPECT_TRUE(first.matches("alice", "wonderland"));
  EXPECT_FALSE(first.matches("alice", "wonderlanD"));
  EXPECT_FALSE(first.matches("bob", "wonderland"));
  const auto a = first.digestOf("alice"), b = second.digestOf("alice");
  ASSERT_TRUE(a && b);
  EXPECT_NE(*a, *b) << "each instance has its own key";
  for (const std::string& plain : {std::string("alice:wonderland"), std::string("wonderland")}) {
    VerifiedCredentials::Digest sha256{};
    unsigned int n = 0;
    EVP_Digest(plain.data(), plain.size(), sha256.data(), &n, EVP_sha256(), nullptr);
    EXPECT_NE(*a, sha256) << "an unkeyed SHA-256 of " << plain;
  }
}

// One client's checks fill only its share of the queue; the others' are taken in turns.
TEST(CheckQueue, ClientsTakeTurnsAndANewcomerPushesOutTheLongestQueue) {
  CheckQueue queue(4, 4);
  std::promise<void> release, started;
  ASSERT_TRUE(queue.trySubmit("hold", [&](bool) {
    started.set_value();
    release.get_future().wait();
  }));
  started.get_future().wait();
  std::mutex mu;
  std::condition_variable answered;
  std::vector<std::string> order;
  auto record = [&](std::string name) {
    return [&, name](bool run) {
      std::lock_guard lock(mu);
      order.push_back(name + (run ? "" : " (pushed out)"));
      answered.notify_all();
    };
  };
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(queue.trySubmit("flood", record("flood" + std::to_string(i))));
  EXPECT_FALSE(queue.trySubmit("flood", record("flood4"))) << "beyond its share";
  ASSERT_TRUE(queue.trySubmit("user", record("user"))) << "full, but the flood has more waiting";
  release.set_value();
  {
    std::unique_lock lock(mu);
    answered.wait(lock, [&] { return order.size() == 5; });
  }
  queue.stop();
  EXPECT_EQ(order, (std::vector<std::string>{"flood3 (pushed out)", "flood0", "user", "flood1", "flood2"}));
}

TEST(BasicAuthClient, SendsBasicCredentials) {
  BasicAuthClient client(ClientAuthConfig{"agent", "p:w"});
  auto h = client.requestHeaders();
  ASSERT_EQ(h.size(), 1u);
  EXPECT_EQ(h[0].first, "authorization");
  EXPECT_EQ(h[0].second, basic("agent", "p:w"));
  EXPECT_EQ(base64Decode(base64Encode("p:w")).value_or(""), "p:w");
}

}  // namespace
}  // namespace proflow::extensions::basicauth
