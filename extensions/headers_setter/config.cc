#include "extensions/headers_setter/config.h"

namespace proflow::extensions::headers_setter {

void HeadersSetterConfig::validate(config::ValidationContext& ctx) const {
  if (headers.empty()) ctx.error("headers", "at least one header is required");
  for (size_t i = 0; i < headers.size(); ++i) {
    const HeaderConfig& h = headers[i];
    const std::string at = "headers[" + std::to_string(i) + "]";
    if (h.key.empty() || h.key.find_first_of(" :\r\n\t") != std::string::npos)
      ctx.error(at + ".key", "'" + h.key + "' is not a valid header name");
    if (h.action != "insert" && h.action != "update" && h.action != "upsert" && h.action != "delete")
      ctx.error(at + ".action", "unknown action '" + h.action + "'; valid: delete, insert, update, upsert");
    if (h.action == "delete") {
      if (h.value || h.from_context) ctx.error(at, "a delete takes neither value nor from_context");
      continue;
    }
    if (h.value.has_value() == h.from_context.has_value())
      ctx.error(at, "set either value or from_context (one of them)");
    if (h.default_value && !h.from_context) ctx.error(at + ".default_value", "applies only with from_context");
    if (h.value && h.value->find_first_of("\r\n") != std::string::npos)
      ctx.error(at + ".value", "contains a line break");
  }
}

}  // namespace proflow::extensions::headers_setter
