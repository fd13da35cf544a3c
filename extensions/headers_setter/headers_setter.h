// The `headers_setter` extension: a client authenticator that sets request headers on the exporters
// naming it (`auth: { authenticator: headers_setter }`), from fixed values or from the metadata the
// receiver kept with each batch. On a multi-tenant gateway this carries each tenant's header
// (X-Scope-OrgID) from the agent's request to the backend's, batch by batch: data of one tenant never
// goes out under another's header as long as the batch processor keeps tenants apart (metadata_keys).
#pragma once

#include <string>
#include <vector>

#include "core/auth/authenticator.h"
#include "core/component/factory.h"
#include "extensions/headers_setter/config.h"

namespace proflow::extensions::headers_setter {

class HeadersSetter final : public Extension, public auth::ClientAuthenticator {
 public:
  HeadersSetter(const CreateSettings& settings, HeadersSetterConfig config);

  Status start(Host&) override { return Status::ok(); }
  void shutdown(Deadline) override {}

  // The fixed values (what is known without a request).
  auth::HeaderList requestHeaders() const override;
  void editRequestHeaders(const ClientMetadata* context, auth::HeaderList& headers) const override;

 private:
  struct Rule {
    std::string name;  // lower case
    HeaderConfig config;
  };
  std::vector<Rule> rules_;
};

}  // namespace proflow::extensions::headers_setter
