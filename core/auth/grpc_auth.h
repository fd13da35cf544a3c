// Server authentication for gRPC listeners, as HTTP listeners get it from server_auth.h: the call's
// metadata checked through ServerAuthenticator::authenticateAsync (a password hash never runs on a
// gRPC thread), a check that could not be made answered UNAVAILABLE with a retry hint, and calls to
// methods the listener does not serve answered UNAUTHENTICATED before UNIMPLEMENTED.
#pragma once

#include <grpcpp/generic/async_generic_service.h>
#include <grpcpp/server_context.h>

#include <functional>

#include "core/auth/authenticator.h"

namespace proflow::auth {

// Checks `ctx`'s metadata and answers `done` once, from any thread: OK (also when `authenticator` is
// null), UNAUTHENTICATED, or UNAVAILABLE with a retry hint when the check could not be made now.
// `ctx` must outlive the check (it does: a call's context lives until the call is finished).
void authenticateCall(const ServerAuthenticator* authenticator, const grpc::ServerContextBase& ctx,
                      std::function<void(Status)> done);

// The same, waited for: for synchronous handlers, which run on a pool of gRPC's own threads. The
// hash still runs behind the authenticator's bounded queue.
Status authenticateCallBlocking(const ServerAuthenticator* authenticator, const grpc::ServerContextBase& ctx);

// Answers every method no service of the server registered (register it with
// ServerBuilder::RegisterCallbackGenericService): UNAUTHENTICATED (or UNAVAILABLE) when the
// credentials do not pass, so a client without them cannot learn which methods exist, else
// UNIMPLEMENTED as gRPC would. `refused` is told why a call was refused ("unauthenticated",
// "auth_unavailable", "unimplemented"), for the listener's counters.
class UnknownMethods final : public grpc::CallbackGenericService {
 public:
  UnknownMethods(const ServerAuthenticator* authenticator, std::function<void(const char* reason)> refused)
      : authenticator_(authenticator), refused_(std::move(refused)) {}
  grpc::ServerGenericBidiReactor* CreateReactor(grpc::GenericCallbackServerContext* ctx) override;

 private:
  const ServerAuthenticator* authenticator_;
  std::function<void(const char* reason)> refused_;
};

// The counter reason of a refused check: "unauthenticated" or "auth_unavailable".
const char* authRefusalReason(const Status& s);

}  // namespace proflow::auth
