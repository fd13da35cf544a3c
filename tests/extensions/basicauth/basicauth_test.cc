// basicauth on its own: htpasswd formats and the Basic header on both sides.
#include <crypt.h>
#include <gtest/gtest.h>
#include <spdlog/spdlog.h>

#include "extensions/basicauth/base64.h"
#include "extensions/basicauth/basic_auth.h"
#include "extensions/basicauth/htpasswd.h"

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
