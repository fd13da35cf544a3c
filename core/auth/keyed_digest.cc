#include "core/auth/keyed_digest.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include <stdexcept>

namespace proflow::auth {

KeyedDigest::KeyedDigest() {
  if (RAND_bytes(key_.data(), static_cast<int>(key_.size())) != 1)
    throw std::runtime_error("no random key for credential digests (OpenSSL RAND_bytes failed)");
}

KeyedDigest::Digest KeyedDigest::operator()(std::string_view data) const {
  Digest d{};
  unsigned int n = 0;
  HMAC(EVP_sha256(), key_.data(), static_cast<int>(key_.size()), reinterpret_cast<const unsigned char*>(data.data()),
       data.size(), d.data(), &n);
  return d;
}

std::string KeyedDigest::hex(std::string_view data) const {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (unsigned char b : (*this)(data)) {
    out.push_back(kDigits[b >> 4]);
    out.push_back(kDigits[b & 0xf]);
  }
  return out;
}

}  // namespace proflow::auth
