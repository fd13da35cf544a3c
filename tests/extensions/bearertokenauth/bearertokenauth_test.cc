// bearertokenauth on its own: header checks, several tokens, a token file that is re-read when it
// changes, and the client header.
#include <gtest/gtest.h>
#include <spdlog/spdlog.h>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <future>
#include <thread>

#include "extensions/bearertokenauth/bearer_token_auth.h"
#include "tests/support/temp_dir.h"

namespace proflow::extensions::bearertokenauth {
namespace {

class NoHost : public Host {
 public:
  void reportFatalError(const ComponentId&, const Status&) override {}
};

auth::HeaderLookup headers(std::map<std::string, std::string> h) {
  return [h = std::move(h)](std::string_view name) -> std::optional<std::string_view> {
    auto it = h.find(std::string(name));
    if (it == h.end()) return std::nullopt;
    return std::string_view(it->second);
  };
}

CreateSettings settings() {
  return {{"bearertokenauth", ""}, ComponentKind::kExtension, spdlog::default_logger(), nullptr, nullptr};
}

TEST(BearerTokenAuth, RequiresSchemeAndOneOfTheTokens) {
  BearerTokenAuthConfig cfg;
  cfg.tokens = {"first", "second"};
  BearerTokenAuth a(settings(), cfg);
  NoHost host;
  ASSERT_TRUE(a.start(host).isOk());
  EXPECT_TRUE(a.authenticate(headers({{"Authorization", "Bearer first"}})).isOk());
  EXPECT_TRUE(a.authenticate(headers({{"Authorization", "Bearer second"}})).isOk());
  for (const char* bad : {"Bearer third", "first", "Bearer  first", "Basic first", "Bearer firs", "Bearer first2"}) {
    Status s = a.authenticate(headers({{"Authorization", bad}}));
    EXPECT_EQ(s.code(), StatusCode::kUnauthenticated) << bad;
    EXPECT_EQ(s.message().find("first"), std::string::npos) << "token echoed: " << s.message();
  }
  Status missing = a.authenticate(headers({}));
  EXPECT_EQ(missing.code(), StatusCode::kUnauthenticated);
  EXPECT_NE(missing.message().find("missing Authorization"), std::string::npos);
  EXPECT_EQ(a.requestHeaders(), (auth::HeaderList{{"authorization", "Bearer first"}}));
  EXPECT_EQ(a.challenge(), "Bearer realm=\"proflow\"");
}

TEST(BearerTokenAuth, CustomHeaderAndEmptyScheme) {
  BearerTokenAuthConfig cfg;
  cfg.header = "X-Api-Key";
  cfg.scheme = "";
  cfg.token = "k1";
  BearerTokenAuth a(settings(), cfg);
  NoHost host;
  ASSERT_TRUE(a.start(host).isOk());
  EXPECT_TRUE(a.authenticate(headers({{"X-Api-Key", "k1"}})).isOk());
  EXPECT_FALSE(a.authenticate(headers({{"Authorization", "k1"}})).isOk());
  EXPECT_EQ(a.requestHeaders(), (auth::HeaderList{{"x-api-key", "k1"}}));
}

TEST(BearerTokenAuth, TokenFileIsReadAgainWhenItChanges) {
  testing::TempDir dir;
  const std::string path = dir.write("token", "old-token  # comment\n");
  BearerTokenAuthConfig cfg;
  cfg.filename = path;
  BearerTokenAuth a(settings(), cfg);
  NoHost host;
  ASSERT_TRUE(a.start(host).isOk());
  EXPECT_TRUE(a.authenticate(headers({{"Authorization", "Bearer old-token"}})).isOk());
  // Rotation as a secret mount does it: a new file renamed over the old one.
  dir.write("token.new", "new-token\n");
  std::filesystem::rename(dir.file("token.new"), path);
  // The file is looked at again at most once a second.
  bool rotated = false;
  for (int i = 0; i < 50 && !rotated; ++i) {
    rotated = a.authenticate(headers({{"Authorization", "Bearer new-token"}})).isOk();
    if (!rotated) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_TRUE(rotated);
  EXPECT_FALSE(a.authenticate(headers({{"Authorization", "Bearer old-token"}})).isOk());
  EXPECT_EQ(a.requestHeaders(), (auth::HeaderList{{"authorization", "Bearer new-token"}}));
}

// Requests never wait for the token file: the file is read by the extension's own thread. Nor does
// that thread: a FIFO put in the token file's place (whose blocking open() would wait for a writer
// that never comes) is not a regular file and is never opened for reading, so the tokens read
// before stay in force and the extension shuts down (joining its thread) at once.
TEST(BearerTokenAuth, ATokenFileThatWouldBlockNeitherHoldsUpAuthenticationNorShutdown) {
  testing::TempDir dir;
  const std::string path = dir.write("token", "steady-token\n");
  BearerTokenAuthConfig cfg;
  cfg.filename = path;
  auto a = std::make_unique<BearerTokenAuth>(settings(), cfg);
  NoHost host;
  ASSERT_TRUE(a->start(host).isOk());
  ASSERT_EQ(::mkfifo(dir.file("fifo").c_str(), 0600), 0);
  std::filesystem::rename(dir.file("fifo"), path);
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));  // the refresher has met the FIFO
  auto answer = std::async(std::launch::async, [&] {
    return a->authenticate(headers({{"Authorization", "Bearer steady-token"}})).isOk();
  });
  const bool answered = answer.wait_for(std::chrono::seconds(20)) == std::future_status::ready;
  auto stopped = std::async(std::launch::async, [&] { a.reset(); });
  const bool joined = stopped.wait_for(std::chrono::seconds(20)) == std::future_status::ready;
  // A refresher blocked in open() would keep the test from ending: a writer lets it return.
  if (!answered || !joined) std::ofstream(path) << "unblocked\n";
  EXPECT_TRUE(answered) << "authentication waited for the token file";
  EXPECT_TRUE(answer.get());
  EXPECT_TRUE(joined) << "shutdown waited for the token file";
}

TEST(BearerTokenAuth, MissingTokenFileFailsStart) {
  BearerTokenAuthConfig cfg;
  cfg.filename = "/nonexistent/token";
  BearerTokenAuth a(settings(), cfg);
  NoHost host;
  Status s = a.start(host);
  EXPECT_FALSE(s.isOk());
  EXPECT_NE(s.message().find("/nonexistent/token"), std::string::npos);
}

TEST(TokenFile, FirstWordOfEachLine) {
  EXPECT_EQ(parseTokenFile("a b c\n\n  d\t# x\n"), (Tokens{"a", "d"}));
}

}  // namespace
}  // namespace proflow::extensions::bearertokenauth
