#include "processors/symbolize/symbolizer.h"

#include <filesystem>

#include "processors/symbolize/build_id.h"

namespace proflow::symbolize {

const char* sourceKindName(SourceKind kind) {
  switch (kind) {
    case SourceKind::kDebugDirs: return "debug_dirs";
    case SourceKind::kBinaries: return "binaries";
    case SourceKind::kEmbedded: return "embedded";
    case SourceKind::kDebuginfod: return "debuginfod";
  }
  return "?";
}

bool parseSourceKind(const std::string& name, SourceKind* kind) {
  for (SourceKind k : {SourceKind::kDebugDirs, SourceKind::kBinaries, SourceKind::kEmbedded, SourceKind::kDebuginfod})
    if (name == sourceKindName(k)) {
      *kind = k;
      return true;
    }
  return false;
}

Symbolizer::Symbolizer(SymbolizerOptions options, SymbolizerObserver* observer)
    : options_(std::move(options)),
      observer_(observer),
      locator_(options_, observer),
      cache_(options_.cache_size_bytes, options_.not_found_ttl) {}

bool Symbolizer::normalize(const BinaryRef& ref, BinaryRef* out, std::string* key) const {
  if (auto gnu = normalizeGnuBuildId(ref.gnu_build_id)) out->gnu_build_id = *gnu;
  if (auto go = normalizeGoBuildId(ref.go_build_id)) out->go_build_id = *go;
  if (auto htl = normalizeHtlhash(ref.htlhash)) out->htlhash = *htl;
  if (options_.trust_mapping_paths && std::filesystem::path(ref.path).is_absolute()) out->path = ref.path;
  if (!out->gnu_build_id.empty()) *key = "gnu:" + out->gnu_build_id;
  else if (!out->go_build_id.empty()) *key = "go:" + out->go_build_id;
  else if (!out->htlhash.empty()) *key = "htl:" + out->htlhash;
  else if (!out->path.empty()) *key = "path:" + out->path;
  else return false;
  return true;
}

LocateResult Symbolizer::module(const BinaryRef& ref) {
  BinaryRef clean;
  std::string key;
  if (!normalize(ref, &clean, &key)) return {};
  bool hit = false;
  LocateResult r = cache_.get(key, [&] { return locator_.locate(clean); }, &hit);
  if (observer_) hit ? observer_->onCacheHit() : observer_->onCacheMiss();
  return r;
}

FramesPtr Symbolizer::symbolize(ElfModule& module, uint64_t address, AddressKind kind, const MappingRange& mapping) {
  auto elf_address = module.toElfAddress(address, kind, mapping);
  if (!elf_address) return std::make_shared<const Frames>();
  return module.symbolize(*elf_address);
}

Symbolizer::Result Symbolizer::symbolize(const BinaryRef& ref, uint64_t address, AddressKind kind,
                                         const MappingRange& mapping) {
  LocateResult m = module(ref);
  Result r;
  r.status = m.status;
  r.error = m.error;
  if (m.module) r.frames = symbolize(*m.module, address, kind, mapping);
  return r;
}

}  // namespace proflow::symbolize
