#include "extensions/bearertokenauth/factory.h"

#include "core/component/factory_helpers.h"
#include "extensions/bearertokenauth/bearer_token_auth.h"

namespace proflow::extensions::bearertokenauth {
namespace {

class BearerTokenAuthFactory final : public ExtensionFactoryFor<BearerTokenAuthConfig> {
 public:
  std::string_view type() const override { return "bearertokenauth"; }
  bool isAuthenticator() const override { return true; }

 protected:
  std::unique_ptr<Extension> createExtension(const CreateSettings& s, const BearerTokenAuthConfig& c) const override {
    return std::make_unique<BearerTokenAuth>(s, c);
  }
};

}  // namespace

std::unique_ptr<Factory> makeBearerTokenAuthExtensionFactory() { return std::make_unique<BearerTokenAuthFactory>(); }

}  // namespace proflow::extensions::bearertokenauth
