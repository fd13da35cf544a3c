#include "core/auth/grpc_auth.h"

#include <future>
#include <string>

#include "core/net/grpc_status.h"
#include "core/net/peer_address.h"
#include "core/util/ascii.h"

namespace proflow::auth {
namespace {

// An answer is either the check's verdict or a check that was not made: the client may retry.
Status verdict(Status s) {
  if (s.isOk() || s.code() == StatusCode::kUnauthenticated) return s;
  const auto retry = s.retryAfter().count() > 0 ? s.retryAfter() : std::chrono::seconds(1);
  return Status::unavailable(s.message()).withRetryAfter(retry);
}

class UnknownMethodCall final : public grpc::ServerGenericBidiReactor {
 public:
  UnknownMethodCall(const ServerAuthenticator* authenticator, grpc::GenericCallbackServerContext* ctx,
                    const std::function<void(const char*)>& refused) {
    authenticateCall(authenticator, *ctx, [this, method = ctx->method(), refused](Status s) {
      if (!s.isOk()) {
        refused(authRefusalReason(s));
        return Finish(toGrpcStatus(s));
      }
      refused("unimplemented");
      Finish(grpc::Status(grpc::StatusCode::UNIMPLEMENTED, "unknown method " + method));
    });
  }
  void OnDone() override { delete this; }
};

}  // namespace

const char* authRefusalReason(const Status& s) {
  return s.code() == StatusCode::kUnauthenticated ? "unauthenticated" : "auth_unavailable";
}

void authenticateCall(const ServerAuthenticator* authenticator, const grpc::ServerContextBase& ctx,
                      std::function<void(Status)> done) {
  if (!authenticator) return done(Status::ok());
  const auto& md = ctx.client_metadata();
  authenticator->authenticateAsync(
      [&md](std::string_view name) -> std::optional<std::string_view> {
        // gRPC metadata keys are lower case; authenticators name headers as HTTP spells them.
        const std::string key = toLowerAscii(name);
        auto it = md.find(grpc::string_ref(key));
        if (it == md.end()) return std::nullopt;
        return std::string_view(it->second.data(), it->second.size());
      },
      net::clientGroup(ctx.peer()), [done = std::move(done)](Status s) { done(verdict(std::move(s))); });
}

Status authenticateCallBlocking(const ServerAuthenticator* authenticator, const grpc::ServerContextBase& ctx) {
  std::promise<Status> answer;
  authenticateCall(authenticator, ctx, [&answer](Status s) { answer.set_value(std::move(s)); });
  return answer.get_future().get();
}

grpc::ServerGenericBidiReactor* UnknownMethods::CreateReactor(grpc::GenericCallbackServerContext* ctx) {
  return new UnknownMethodCall(authenticator_, ctx, refused_);
}

}  // namespace proflow::auth
