// htpasswd entries (`user:hash` per line) and password checks for the hash formats Apache's
// htpasswd writes, as far as Debian 12's libcrypt (libxcrypt) and OpenSSL allow:
//   $2y$ / $2a$ / $2b$ (bcrypt), $5$ / $6$ (SHA-crypt), $1$ (MD5-crypt), 13-character DES crypt:
//     libcrypt's crypt_r;
//   $apr1$ (Apache's MD5 variant, htpasswd -m): computed here over OpenSSL's MD5;
//   {SHA} (htpasswd -s, base64 of SHA-1): OpenSSL.
// Plain-text entries are refused (Apache accepts them only on Windows, NetWare and TPF).
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "core/util/status.h"

namespace proflow::extensions::basicauth {

// user -> hash. Blank lines and lines starting with '#' are skipped; a later entry for the same
// user replaces an earlier one. Errors name `source` and the line, never the hash.
Status parseHtpasswd(std::string_view text, const std::string& source, std::map<std::string, std::string>* users);

// True when `password` hashes to `hash`; the final comparison takes constant time. A password
// holding a NUL byte is refused (crypt(3) would check only what precedes it).
bool verifyPassword(std::string_view password, const std::string& hash);

// The format of a hash with its cost parameter: "$2y$10$", "$6$rounds=5000$", "$6$", "$apr1$",
// "{SHA}", "" (DES crypt).
std::string hashFormat(const std::string& hash);

// The hash whose check takes longest, timed once per format (a check of each): what an unknown user's
// password is checked against, so that refusing an unknown user costs what refusing a known one does.
std::string slowestHash(const std::map<std::string, std::string>& users);

// The $apr1$ hash of `password` with `salt` (at most 8 characters used), e.g. for tests.
std::string apr1Crypt(std::string_view password, std::string_view salt);

}  // namespace proflow::extensions::basicauth
