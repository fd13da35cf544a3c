// Inputs for the hostile-input replay test, all made at test time: a valid fixture of each format
// the daemon receives, mutations of them, and shapes chosen to exhaust a careless parser (bombs,
// deep nesting, huge tables, lying sizes).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace proflow::testing::hostile {

// Valid fixtures (each accepted by its receiver).
std::string otlpProto();  // ExportProfilesServiceRequest, protobuf
std::string otlpJson();   // the same request as OTLP JSON
std::string pprofGzip();  // gzip pprof
std::string pprofRaw();   // the same, uncompressed
std::string jfrChunk();   // one JFR chunk with a few CPU samples
std::string foldedText();

// `n` prefixes of `valid` cut at random points (never empty, never whole).
std::vector<std::string> truncations(const std::string& valid, int n, uint32_t seed);
// `n` copies of `valid` with 1 to 8 random bits flipped each.
std::vector<std::string> bitFlips(const std::string& valid, int n, uint32_t seed);
// `n` random bytes (incompressible, no valid magic).
std::string randomBytes(size_t n, uint32_t seed);

// `inflated` zero bytes through the compressor, streamed: small on the wire, huge inflated.
std::string gzipBomb(size_t inflated);
std::string zstdBomb(size_t inflated);

// {"resourceProfiles":[[[[...]]]]} nested `depth` deep.
std::string deeplyNestedJsonArrays(int depth);
// A valid-shaped OTLP JSON request whose one resource attribute is a kvlistValue nested `depth` deep.
std::string deeplyNestedAnyValueJson(int depth);
// A multipart/form-data body with `parts` tiny parts before a valid `profile` part (pyroscope-go's
// shape); `content_type` receives the header value with the boundary.
std::string manyPartMultipart(int parts, const std::string& profile, std::string* content_type);

// Valid pprof shapes that are expensive to convert.
std::string pprofManySampleTypes(int types, int samples);  // raw protobuf
std::string pprofHugeStringTable(int strings);             // raw protobuf; the strings are unreferenced

// JFR chunks whose size fields lie (chunk size, pool and metadata offsets, event sizes).
std::vector<std::string> jfrLyingSizes();

// An OTLP request (protobuf) whose service name and a function name are not valid UTF-8.
std::string otlpInvalidUtf8Proto();
// The same as OTLP JSON with raw invalid UTF-8 bytes inside JSON strings.
std::string otlpInvalidUtf8Json();
// A pprof (raw protobuf) with an invalid UTF-8 function name.
std::string pprofInvalidUtf8();

}  // namespace proflow::testing::hostile
