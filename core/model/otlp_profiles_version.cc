#include "core/model/otlp_profiles_version.h"

#include <charconv>
#include <string>

namespace proflow {
namespace {

std::string shown(std::string_view v) {
  constexpr size_t kMax = 32;  // the value is the client's; keep the answer short
  return "'" + std::string(v.substr(0, kMax)) + (v.size() > kMax ? "...'" : "'");
}

}  // namespace

Status checkProfilesVersion(const std::vector<std::string_view>& values) {
  const std::string supported = "supported: " + std::string(kProfilesVersionText) + " (or no " +
                                std::string(kProfilesVersionHeader) + ")";
  if (values.empty()) return Status::ok();
  if (values.size() > 1)
    return Status::invalid(std::string(kProfilesVersionHeader) + " is repeated; send it once. " + supported);
  std::string_view v = values.front();
  long long version = 0;
  auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), version);
  if (v.empty() || ec != std::errc() || end != v.data() + v.size() || version < 1 || v.front() == '0')
    return Status::invalid(std::string(kProfilesVersionHeader) + " " + shown(v) + " is not a positive integer; " +
                           supported);
  if (version != kProfilesVersion)
    return Status::invalid("OTLP profiles development version " + std::to_string(version) +
                           " is not supported by this receiver; " + supported);
  return Status::ok();
}

}  // namespace proflow
