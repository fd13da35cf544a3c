#include "core/exporterhelper/queue_record.h"

#include <isa-l/crc.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstring>

namespace proflow::exporterhelper {
namespace {

constexpr char kMagic[4] = {'P', 'F', 'Q', 'B'};
constexpr uint8_t kVersion = 1;
constexpr size_t kChecksumOffset = 16;

void putLe(char* out, uint64_t v, size_t bytes) {
  for (size_t i = 0; i < bytes; ++i) out[i] = static_cast<char>((v >> (8 * i)) & 0xff);
}

uint64_t getLe(const char* in, size_t bytes) {
  uint64_t v = 0;
  for (size_t i = 0; i < bytes; ++i) v |= uint64_t{static_cast<unsigned char>(in[i])} << (8 * i);
  return v;
}

// isa-l takes an int length: long payloads are fed in pieces.
uint32_t crc32c(std::string_view bytes, uint32_t crc) {
  while (!bytes.empty()) {
    const size_t n = std::min<size_t>(bytes.size(), INT_MAX);
    crc = crc32_iscsi(reinterpret_cast<unsigned char*>(const_cast<char*>(bytes.data())), static_cast<int>(n), crc);
    bytes.remove_prefix(n);
  }
  return crc;
}

uint32_t checksum(std::string_view header_start, std::string_view payload) {
  return crc32c(payload, crc32c(header_start.substr(0, kChecksumOffset), 0xffffffffu));
}

}  // namespace

std::string recordHeader(std::string_view payload) {
  std::string header(kRecordHeaderBytes, '\0');
  std::memcpy(header.data(), kMagic, sizeof kMagic);
  header[4] = static_cast<char>(kVersion);
  putLe(header.data() + 8, payload.size(), 8);
  putLe(header.data() + kChecksumOffset, checksum(header, payload), 4);
  return header;
}

Status recordPayload(std::string_view file, std::string_view* payload) {
  if (file.size() < kRecordHeaderBytes || std::memcmp(file.data(), kMagic, sizeof kMagic) != 0)
    return Status::invalid("not a queue record (no PFQB header)");
  if (static_cast<uint8_t>(file[4]) != kVersion)
    return Status::invalid("queue record format version " + std::to_string(static_cast<uint8_t>(file[4])) +
                           " is not known to this version of proflow");
  const uint64_t length = getLe(file.data() + 8, 8);
  if (length != file.size() - kRecordHeaderBytes)
    return Status::invalid("queue record announces " + std::to_string(length) + " bytes but holds " +
                           std::to_string(file.size() - kRecordHeaderBytes) + " (cut short or extended)");
  const std::string_view body = file.substr(kRecordHeaderBytes);
  if (getLe(file.data() + kChecksumOffset, 4) != checksum(file, body))
    return Status::invalid("queue record checksum mismatch (the file was changed or damaged on disk)");
  *payload = body;
  return Status::ok();
}

}  // namespace proflow::exporterhelper
