#include "core/model/client_metadata.h"

namespace proflow {

std::string lowerAscii(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

void ClientMetadata::add(std::string_view key, std::string value) {
  std::string k = lowerAscii(key);
  for (auto& [name, values] : entries_)
    if (name == k) {
      values.push_back(std::move(value));
      return;
    }
  entries_.emplace_back(std::move(k), std::vector<std::string>{std::move(value)});
}

const std::vector<std::string>* ClientMetadata::get(std::string_view key) const {
  const std::string k = lowerAscii(key);
  for (const auto& [name, values] : entries_)
    if (name == k) return &values;
  return nullptr;
}

std::string ClientMetadata::first(std::string_view key) const {
  const auto* v = get(key);
  return v && !v->empty() ? v->front() : std::string();
}

}  // namespace proflow
