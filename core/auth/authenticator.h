// The interfaces auth extensions implement (bearertokenauth, basicauth) and the components that
// authenticate through them: a server checks each request's headers (HTTP headers or gRPC metadata)
// before reading its body; a client adds headers to every request it sends.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/model/client_metadata.h"
#include "core/util/status.h"

namespace proflow::auth {

// Looks up the first value of a request header or gRPC metadata key (names compare
// case-insensitively for HTTP; gRPC keys are lower case). nullopt when absent.
using HeaderLookup = std::function<std::optional<std::string_view>(std::string_view name)>;

using HeaderList = std::vector<std::pair<std::string, std::string>>;

class ServerAuthenticator {
 public:
  virtual ~ServerAuthenticator() = default;
  // OK, or UNAUTHENTICATED with a message that names what was wrong (missing header, wrong scheme,
  // invalid credentials) but never echoes the credentials. Thread-safe. May take as long as the
  // check does (a password hash): servers on I/O threads call authenticateAsync instead.
  virtual Status authenticate(const HeaderLookup& header) const = 0;
  // The same check, answered through `done`: once, from any thread, possibly before this returns.
  // A check that takes time runs elsewhere, so the calling I/O thread never waits for it; one that
  // cannot be run now is answered UNAVAILABLE with a retry hint (servers answer 503 + Retry-After).
  // `client` is who asks (net::clientGroup() of the peer: an address, or an IPv6 /64), so that
  // checks that wait are served fairly between clients: one client's flood of guesses does not
  // keep the others' checks out. `header` is used only during this call. The default answers
  // authenticate() at once (cheap checks: a token comparison).
  virtual void authenticateAsync(const HeaderLookup& header, std::string_view client,
                                 std::function<void(Status)> done) const {
    (void)client;
    done(authenticate(header));
  }
  // The WWW-Authenticate value of a 401, e.g. `Bearer realm="proflow"`.
  virtual std::string challenge() const = 0;
};

class ClientAuthenticator {
 public:
  virtual ~ClientAuthenticator() = default;
  // Headers to add to the next request (lower-case names, valid as gRPC metadata too). Called per
  // request so rotated credentials (a re-read token file) are picked up. Thread-safe.
  virtual HeaderList requestHeaders() const = 0;
  // Edits the headers of a request about to be sent (the exporter's own `headers`, names lower
  // case) for data that came with `context` (the request metadata a receiver kept; null when none).
  // The default sets requestHeaders(), each replacing a header of the same name; headers_setter
  // takes values from the context and may insert, update, upsert or delete.
  virtual void editRequestHeaders(const ClientMetadata* context, HeaderList& headers) const;
};

// Compares in time that depends only on the lengths, so a wrong secret does not leak how many of
// its leading bytes matched.
bool constantTimeEquals(std::string_view a, std::string_view b);

}  // namespace proflow::auth
