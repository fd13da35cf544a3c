#include "extensions/basicauth/factory.h"

#include "core/component/factory_helpers.h"
#include "extensions/basicauth/basic_auth.h"

namespace proflow::extensions::basicauth {
namespace {

class BasicAuthFactory final : public ExtensionFactoryFor<BasicAuthConfig> {
 public:
  std::string_view type() const override { return "basicauth"; }
  bool isAuthenticator() const override { return true; }

 protected:
  std::unique_ptr<Extension> createExtension(const CreateSettings& s, const BasicAuthConfig& c) const override {
    if (c.client_auth) return std::make_unique<BasicAuthClient>(*c.client_auth);
    return std::make_unique<BasicAuthServer>(s, c.htpasswd.value_or(HtpasswdConfig{}));
  }
};

}  // namespace

std::unique_ptr<Factory> makeBasicAuthExtensionFactory() { return std::make_unique<BasicAuthFactory>(); }

}  // namespace proflow::extensions::basicauth
