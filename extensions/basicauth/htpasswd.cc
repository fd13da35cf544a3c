#include "extensions/basicauth/htpasswd.h"

#include <crypt.h>
#include <openssl/evp.h>

#include <array>
#include <chrono>
#include <memory>

#include "core/auth/authenticator.h"
#include "extensions/basicauth/base64.h"

namespace proflow::extensions::basicauth {
namespace {

constexpr std::string_view kApr1Magic = "$apr1$";
constexpr std::string_view kShaPrefix = "{SHA}";

using Md5Digest = std::array<unsigned char, 16>;

class Md5 {
 public:
  Md5() : ctx_(EVP_MD_CTX_new(), EVP_MD_CTX_free) { EVP_DigestInit_ex(ctx_.get(), EVP_md5(), nullptr); }
  Md5& add(std::string_view s) {
    EVP_DigestUpdate(ctx_.get(), s.data(), s.size());
    return *this;
  }
  Md5& add(const Md5Digest& d, size_t n = 16) {
    EVP_DigestUpdate(ctx_.get(), d.data(), n);
    return *this;
  }
  Md5Digest finish() {
    Md5Digest d{};
    unsigned int n = 0;
    EVP_DigestFinal_ex(ctx_.get(), d.data(), &n);
    return d;
  }

 private:
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx_;
};

// crypt(3)'s base-64 alphabet, least significant 6 bits first.
void appendCrypt64(std::string& out, unsigned value, int chars) {
  static constexpr char kAlphabet[] = "./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  for (int i = 0; i < chars; ++i, value >>= 6) out.push_back(kAlphabet[value & 0x3f]);
}

std::string shaHash(std::string_view password) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  EVP_Digest(password.data(), password.size(), digest, &n, EVP_sha1(), nullptr);
  return std::string(kShaPrefix) + base64Encode(std::string_view(reinterpret_cast<const char*>(digest), n));
}

std::string libcryptHash(std::string_view password, const std::string& setting) {
  struct crypt_data data {};
  const char* out = crypt_r(std::string(password).c_str(), setting.c_str(), &data);
  // libxcrypt answers an unsupported or malformed setting with a string starting with '*'.
  if (!out || out[0] == '*') return {};
  return out;
}

}  // namespace

std::string apr1Crypt(std::string_view password, std::string_view salt) {
  salt = salt.substr(0, std::min(salt.find('$'), size_t{8}));
  Md5 alt_ctx;
  const Md5Digest alt = alt_ctx.add(password).add(salt).add(password).finish();
  Md5 ctx;
  ctx.add(password).add(kApr1Magic).add(salt);
  for (size_t left = password.size(); left > 0; left -= std::min<size_t>(left, 16)) ctx.add(alt, std::min<size_t>(left, 16));
  for (size_t bits = password.size(); bits; bits >>= 1)
    ctx.add((bits & 1) ? std::string_view("\0", 1) : password.substr(0, 1));
  Md5Digest sum = ctx.finish();
  // 1000 rounds that mix password, salt and the previous digest in a fixed pattern (slows guessing).
  for (int i = 0; i < 1000; ++i) {
    Md5 round;
    if (i & 1) round.add(password); else round.add(sum);
    if (i % 3) round.add(salt);
    if (i % 7) round.add(password);
    if (i & 1) round.add(sum); else round.add(password);
    sum = round.finish();
  }
  std::string out = std::string(kApr1Magic) + std::string(salt) + "$";
  static constexpr int kGroups[5][3] = {{0, 6, 12}, {1, 7, 13}, {2, 8, 14}, {3, 9, 15}, {4, 10, 5}};
  for (const auto& g : kGroups) appendCrypt64(out, (sum[g[0]] << 16) | (sum[g[1]] << 8) | sum[g[2]], 4);
  appendCrypt64(out, sum[11], 2);
  return out;
}

bool verifyPassword(std::string_view password, const std::string& hash) {
  // crypt(3) reads a password up to its first NUL: "secret\0anything" would pass as "secret".
  if (password.find('\0') != std::string_view::npos) return false;
  std::string computed;
  if (hash.rfind(kApr1Magic, 0) == 0) {
    computed = apr1Crypt(password, std::string_view(hash).substr(kApr1Magic.size()));
  } else if (hash.rfind(kShaPrefix, 0) == 0) {
    computed = shaHash(password);
  } else {
    computed = libcryptHash(password, hash);
  }
  return !computed.empty() && auth::constantTimeEquals(computed, hash);
}

std::string hashFormat(const std::string& hash) {
  if (hash.empty() || hash[0] != '$') return hash.rfind("{SHA}", 0) == 0 ? "{SHA}" : "";
  const size_t id_end = hash.find('$', 1);
  if (id_end == std::string::npos) return hash;
  const size_t next = hash.find('$', id_end + 1);
  if (next == std::string::npos) return hash.substr(0, id_end + 1);
  const std::string_view param = std::string_view(hash).substr(id_end + 1, next - id_end - 1);
  const bool cost = !param.empty() && (param.rfind("rounds=", 0) == 0 ||
                                       param.find_first_not_of("0123456789") == std::string_view::npos);
  return cost ? hash.substr(0, next + 1) : hash.substr(0, id_end + 1);
}

std::string slowestHash(const std::map<std::string, std::string>& users) {
  std::map<std::string, const std::string*> one_per_format;
  for (const auto& [user, hash] : users) one_per_format.emplace(hashFormat(hash), &hash);
  std::string slowest;
  auto longest = std::chrono::steady_clock::duration::min();
  for (const auto& [format, hash] : one_per_format) {
    const auto begin = std::chrono::steady_clock::now();
    (void)verifyPassword("timing probe", *hash);
    const auto took = std::chrono::steady_clock::now() - begin;
    if (took > longest) {
      longest = took;
      slowest = *hash;
    }
  }
  return slowest;
}

Status parseHtpasswd(std::string_view text, const std::string& source, std::map<std::string, std::string>* users) {
  size_t line_no = 0;
  while (!text.empty()) {
    ++line_no;
    size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.remove_suffix(1);
    if (line.empty() || line.front() == '#') continue;
    const size_t colon = line.find(':');
    const std::string where = source + ":" + std::to_string(line_no);
    if (colon == 0 || colon == std::string_view::npos) return Status::invalid(where + ": expected user:hash");
    std::string hash(line.substr(colon + 1));
    const bool known = hash.rfind(kApr1Magic, 0) == 0 || hash.rfind(kShaPrefix, 0) == 0 ||
                       (hash.size() > 3 && hash[0] == '$') || hash.size() == 13;
    if (!known)
      return Status::invalid(where + ": user '" + std::string(line.substr(0, colon)) +
                             "' has no supported hash (bcrypt, SHA-crypt, MD5-crypt, APR1, {SHA} or DES crypt); "
                             "plain-text passwords are not accepted");
    (*users)[std::string(line.substr(0, colon))] = std::move(hash);
  }
  return Status::ok();
}

}  // namespace proflow::extensions::basicauth
