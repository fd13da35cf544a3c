#include "core/exporterhelper/queue_record.h"

#include <isa-l/crc.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstring>

namespace proflow::exporterhelper {
namespace {

constexpr char kMagic[4] = {'P', 'F', 'Q', 'B'};
constexpr uint8_t kVersion = 2;
constexpr uint8_t kVersionWithoutMetadata = 1;
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

void putString(std::string& out, std::string_view s) {
  char len[4];
  putLe(len, s.size(), 4);
  out.append(len, 4);
  out.append(s);
}

// Credentials a client sent are not written to disk: a queue file outlives the request and may be
// read by whoever reads the disk. What follows a restart loses them (a headers_setter rule taking
// `authorization` from the context then sends its default_value).
bool isCredential(const std::string& key) {
  return key == "authorization" || key == "proxy-authorization" || key == "cookie";
}

}  // namespace

std::string recordPayloadOf(const ClientMetadata* metadata, std::string_view otlp) {
  std::string block;
  if (metadata)
    for (const auto& [key, values] : metadata->entries()) {
      if (isCredential(key)) continue;
      putString(block, key);
      char count[4];
      putLe(count, values.size(), 4);
      block.append(count, 4);
      for (const auto& v : values) putString(block, v);
    }
  std::string out;
  out.reserve(4 + block.size() + otlp.size());
  putString(out, block);
  out.append(otlp);
  return out;
}

Status splitRecordPayload(std::string_view payload, uint8_t version, ClientMetadataPtr* metadata,
                          std::string_view* otlp) {
  metadata->reset();
  if (version == kVersionWithoutMetadata) {
    *otlp = payload;
    return Status::ok();
  }
  // Every length is checked against what is left: a record is untrusted input.
  auto take = [&payload](std::string_view* out) {
    if (payload.size() < 4) return false;
    const uint64_t n = getLe(payload.data(), 4);
    if (n > payload.size() - 4) return false;
    *out = payload.substr(4, n);
    payload.remove_prefix(4 + n);
    return true;
  };
  std::string_view block;
  if (!take(&block)) return Status::invalid("queue record metadata block is cut short");
  *otlp = payload;
  if (block.empty()) return Status::ok();
  auto kept = std::make_shared<ClientMetadata>();
  payload = block;
  while (!payload.empty()) {
    std::string_view key;
    if (!take(&key) || payload.size() < 4) return Status::invalid("queue record metadata key is cut short");
    uint64_t count = getLe(payload.data(), 4);
    payload.remove_prefix(4);
    if (count > payload.size() / 4) return Status::invalid("queue record metadata value count is past the block");
    for (; count > 0; --count) {
      std::string_view value;
      if (!take(&value)) return Status::invalid("queue record metadata value is cut short");
      kept->add(key, std::string(value));
    }
  }
  *metadata = std::move(kept);
  return Status::ok();
}

std::string recordHeader(std::string_view payload) {
  std::string header(kRecordHeaderBytes, '\0');
  std::memcpy(header.data(), kMagic, sizeof kMagic);
  header[4] = static_cast<char>(kVersion);
  putLe(header.data() + 8, payload.size(), 8);
  putLe(header.data() + kChecksumOffset, checksum(header, payload), 4);
  return header;
}

Status recordPayload(std::string_view file, std::string_view* payload, uint8_t* version) {
  if (file.size() < kRecordHeaderBytes || std::memcmp(file.data(), kMagic, sizeof kMagic) != 0)
    return Status::invalid("not a queue record (no PFQB header)");
  *version = static_cast<uint8_t>(file[4]);
  if (*version != kVersion && *version != kVersionWithoutMetadata)
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
