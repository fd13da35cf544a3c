#include "core/formats/pprof/pprof_codec.h"

#include "core/formats/pprof/profile_validator.h"

namespace proflow::pprof {

Status parseProfile(std::string_view raw, Profile* out) {
  out->Clear();
  // protobuf's parser grows repeated fields as it reads, so a lying length never allocates more than
  // the input can fill; anything malformed is reported as one error.
  if (!out->ParseFromArray(raw.data(), static_cast<int>(raw.size())))
    return Status::invalid("pprof: not a valid perftools.profiles.Profile protobuf (" + std::to_string(raw.size()) +
                           " bytes after decompression)");
  return {};
}

Status validateProfile(const Profile& p, const ProfileLimits& limits) {
  return internal::ProfileValidator<Profile>(p, limits).run();
}

Status decompressProfile(std::string_view data, std::string* raw, const compression::Limits& limits) {
  if (data.empty()) return Status::invalid("pprof: empty input");
  if (data.size() > static_cast<size_t>(INT32_MAX)) return Status::tooLarge("pprof: input larger than 2 GiB");
  if (auto s = compression::decompressAuto(data, *raw, limits); !s) return Status(s.code(), "pprof: " + s.message());
  if (raw->size() > static_cast<size_t>(INT32_MAX)) return Status::tooLarge("pprof: decompressed size above 2 GiB");
  return {};
}

Status decodeProfile(std::string_view data, Profile* out, const DecodeOptions& options) {
  std::string raw;
  if (auto s = decompressProfile(data, &raw, options.limits); !s) return s;
  if (auto s = parseProfile(raw, out); !s) return s;
  return options.validate ? validateProfile(*out, options.profile_limits) : Status{};
}

Status encodeProfile(const Profile& p, std::string* out, Encoding encoding, int level) {
  std::string raw;
  if (!p.SerializeToString(&raw)) return Status::internal("pprof: serialization failed");
  return compressProfile(std::move(raw), out, encoding, level);
}

Status compressProfile(std::string raw, std::string* out, Encoding encoding, int level) {
  if (encoding == Encoding::kRaw) {
    *out = std::move(raw);
    return {};
  }
  return compressProfileBytes(raw, out, encoding, level);
}

Status compressProfileBytes(std::string_view raw, std::string* out, Encoding encoding, int level) {
  if (encoding == Encoding::kRaw) {
    out->assign(raw);
    return {};
  }
  out->clear();
  if (encoding == Encoding::kGzip) return compression::compress(compression::Codec::kGzip, raw, *out, level);
  // kDefaultGzipLevel means "fast" for zstd too: its level 1.
  return compression::compress(compression::Codec::kZstd, raw, *out, level);
}

}  // namespace proflow::pprof
