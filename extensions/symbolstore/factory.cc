#include "extensions/symbolstore/factory.h"

#include "core/component/factory_helpers.h"
#include "extensions/symbolstore/symbol_store_extension.h"

namespace proflow::extensions::symbolstore {
namespace {

class SymbolStoreFactory final : public ExtensionFactoryFor<SymbolStoreConfig> {
 public:
  std::string_view type() const override { return "symbolstore"; }

 protected:
  std::unique_ptr<Extension> createExtension(const CreateSettings& s, const SymbolStoreConfig& c) const override {
    return std::make_unique<SymbolStoreExtension>(s, c);
  }
};

}  // namespace

std::unique_ptr<Factory> makeSymbolStoreExtensionFactory() { return std::make_unique<SymbolStoreFactory>(); }

}  // namespace proflow::extensions::symbolstore
