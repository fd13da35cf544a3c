#include "core/config/config_errors.h"

namespace proflow::config {

std::string quoteValue(std::string_view value, bool quotes, size_t max) {
  const char* q = quotes ? "'" : "";
  if (value.size() <= max) return q + std::string(value) + q;
  return q + std::string(value.substr(0, max)) + "..." + q + " (" + std::to_string(value.size()) + " bytes)";
}

void ConfigErrors::add(std::string path, SourceLocation location, std::string message) {
  if (message.size() > kMaxMessageBytes) message = quoteValue(message, /*quotes=*/false, kMaxMessageBytes);
  if (path.size() > kMaxMessageBytes) path = quoteValue(path, /*quotes=*/false, kMaxMessageBytes);
  errors_.push_back({std::move(path), std::move(location), std::move(message)});
}

std::string ConfigErrors::format() const {
  std::string out;
  for (const auto& e : errors_) {
    out += e.location.str();
    out += ": ";
    if (!e.path.empty()) {
      out += e.path;
      out += ": ";
    }
    out += e.message;
    out += '\n';
  }
  return out;
}

}  // namespace proflow::config
