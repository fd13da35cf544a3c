// One batch of the persistent queue as it lies on disk: a 20-byte header, then the batch as an OTLP
// ExportProfilesServiceRequest (the payload). All integers are little-endian.
//   offset 0   "PFQB"                   magic
//          4   1                        format version
//          5   0 0 0                    reserved
//          8   u64                      payload length
//         16   u32                      CRC-32C of bytes 0..15 and the payload
// The checksum makes a flipped bit, a torn write or a file cut short after a power loss a refused
// record instead of silently changed data.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "core/util/status.h"

namespace proflow::exporterhelper {

inline constexpr size_t kRecordHeaderBytes = 20;

// The header that precedes `payload` on disk.
std::string recordHeader(std::string_view payload);

// The payload of the record `file` holds; kInvalid, saying what is wrong, when the header, the
// length or the checksum does not match.
Status recordPayload(std::string_view file, std::string_view* payload);

}  // namespace proflow::exporterhelper
