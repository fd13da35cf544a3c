// One batch of the persistent queue as it lies on disk: a 20-byte header, then the payload. All
// integers are little-endian.
//   offset 0   "PFQB"                   magic
//          4   2 (or 1)                 format version
//          5   0 0 0                    reserved
//          8   u64                      payload length
//         16   u32                      CRC-32C of bytes 0..15 and the payload
// Payload, version 2: the request metadata the batch came with (client_metadata.h: a tenant header
// must still be on its data after a restart), then the batch as an OTLP ExportProfilesServiceRequest:
//   u32 block length, then per key: u32 length + key, u32 value count, per value: u32 length + value
// Version 1 (still read): the OTLP request alone.
// The checksum makes a flipped bit, a torn write or a file cut short after a power loss a refused
// record instead of silently changed data.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "core/model/client_metadata.h"
#include "core/util/status.h"

namespace proflow::exporterhelper {

inline constexpr size_t kRecordHeaderBytes = 20;

// A version 2 payload: `metadata` (null: none; credential headers — authorization,
// proxy-authorization, cookie — are left out) and the OTLP request bytes.
std::string recordPayloadOf(const ClientMetadata* metadata, std::string_view otlp);

// The (version 2) header that precedes `payload` on disk.
std::string recordHeader(std::string_view payload);

// The payload of the record `file` holds and its format version; kInvalidArgument, saying what is
// wrong, when the header, the length or the checksum does not match.
Status recordPayload(std::string_view file, std::string_view* payload, uint8_t* version);

// A payload's metadata (null when it holds none) and OTLP request; kInvalidArgument when the
// metadata block is malformed.
Status splitRecordPayload(std::string_view payload, uint8_t version, ClientMetadataPtr* metadata,
                          std::string_view* otlp);

}  // namespace proflow::exporterhelper
