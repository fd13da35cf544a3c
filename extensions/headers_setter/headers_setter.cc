#include "extensions/headers_setter/headers_setter.h"

#include <algorithm>
#include <optional>

namespace proflow::extensions::headers_setter {

HeadersSetter::HeadersSetter(const CreateSettings&, HeadersSetterConfig config) {
  for (auto& h : config.headers) rules_.push_back({lowerAscii(h.key), std::move(h)});
}

auth::HeaderList HeadersSetter::requestHeaders() const {
  auth::HeaderList out;
  for (const Rule& r : rules_)
    if (r.config.value && r.config.action != "delete") out.emplace_back(r.name, *r.config.value);
  return out;
}

void HeadersSetter::editRequestHeaders(const ClientMetadata* context, auth::HeaderList& headers) const {
  for (const Rule& r : rules_) {
    auto named = [&](const auto& h) { return h.first == r.name; };
    const bool present = std::any_of(headers.begin(), headers.end(), named);
    if (r.config.action == "delete") {
      std::erase_if(headers, named);
      continue;
    }
    std::optional<std::string> value = r.config.value;
    if (r.config.from_context) {
      const std::vector<std::string>* values = context ? context->get(*r.config.from_context) : nullptr;
      if (values && !values->empty()) {
        value = values->front();
      } else {
        value = r.config.default_value;
      }
    }
    if (!value) continue;  // nothing to send: the header is left as it is
    if ((r.config.action == "insert" && present) || (r.config.action == "update" && !present)) continue;
    std::erase_if(headers, named);
    headers.emplace_back(r.name, std::move(*value));
  }
}

}  // namespace proflow::extensions::headers_setter
