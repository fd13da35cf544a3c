#include "core/config/config_errors.h"

namespace proflow::config {

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
