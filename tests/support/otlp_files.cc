#include "tests/support/otlp_files.h"

#include <gtest/gtest.h>

#include "tests/support/temp_dir.h"

namespace proflow::testing {

namespace {

std::vector<otlp::Request> readRecords(const std::string& path, bool torn_tail_is_unwritten) {
  std::string data = readFile(path);
  std::vector<otlp::Request> out;
  size_t pos = 0;
  while (pos < data.size()) {
    if (data.size() - pos < 4) {
      if (torn_tail_is_unwritten) break;
      ADD_FAILURE() << path << ": torn size prefix at offset " << pos;
      break;
    }
    const auto* p = reinterpret_cast<const unsigned char*>(data.data() + pos);
    size_t len = (size_t{p[0]} << 24) | (size_t{p[1]} << 16) | (size_t{p[2]} << 8) | size_t{p[3]};
    pos += 4;
    if (data.size() - pos < len) {
      if (torn_tail_is_unwritten) break;
      ADD_FAILURE() << path << ": torn record at offset " << pos;
      break;
    }
    otlp::Request r;
    if (!r.ParseFromArray(data.data() + pos, static_cast<int>(len))) ADD_FAILURE() << path << ": bad record at " << pos;
    out.push_back(std::move(r));
    pos += len;
  }
  return out;
}

}  // namespace

std::vector<otlp::Request> readOtlpProtoFile(const std::string& path) { return readRecords(path, false); }

std::vector<otlp::Request> readOtlpProtoFileSoFar(const std::string& path) { return readRecords(path, true); }

std::vector<otlp::Profile> allProfiles(const std::vector<otlp::Request>& requests) {
  std::vector<otlp::Profile> out;
  for (const auto& r : requests)
    for (const auto& rp : r.resource_profiles())
      for (const auto& sp : rp.scope_profiles())
        for (const auto& p : sp.profiles()) out.push_back(p);
  return out;
}

}  // namespace proflow::testing
