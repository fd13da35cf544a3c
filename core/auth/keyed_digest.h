// HMAC-SHA256 under a random key made when the object is (never stored or logged): how credentials
// are remembered in memory (a verified password, the key of a caller's share of a listener).
// Without the key, a memory snapshot gives nothing a guess can be checked against; a plain fast
// hash there would let whoever reads it test passwords offline at hash speed, whatever the
// htpasswd entry's own cost.
#pragma once

#include <array>
#include <string>
#include <string_view>

namespace proflow::auth {

class KeyedDigest {
 public:
  using Digest = std::array<unsigned char, 32>;

  KeyedDigest();  // throws when the system has no randomness to offer
  Digest operator()(std::string_view data) const;
  // The digest in hex, for map keys.
  std::string hex(std::string_view data) const;

 private:
  std::array<unsigned char, 32> key_;
};

}  // namespace proflow::auth
