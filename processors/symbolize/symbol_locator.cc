#include "processors/symbolize/symbol_locator.h"

#include <elfutils/libdwelf.h>
#include <fcntl.h>
#include <libelf.h>
#include <unistd.h>

#include <filesystem>

#include "processors/symbolize/build_id.h"

namespace proflow::symbolize {

namespace fs = std::filesystem;

struct SymbolLocator::Attempt {
  std::string binary;  // local binary matching the ref, if any
  std::string gnu;     // GNU build id of the ref or, failing that, of the binary found
  std::shared_ptr<ElfModule> best;
  std::string error;
  bool done = false;  // DWARF found: stop looking

  void consider(const std::string& elf_path, const std::string& debug_path) {
    std::string err;
    std::shared_ptr<ElfModule> m = ElfModule::open(elf_path, debug_path, &err);
    if (!m) {
      if (error.empty()) error = err;
      return;
    }
    if (m->hasDwarf()) {
      best = std::move(m);
      done = true;
    } else if (m->hasSymbols() && !best) {
      best = std::move(m);
    }
  }
};

namespace {

bool isFile(const std::string& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec);
}

// A debug file is only used when it carries the build id asked for: a stale or wrong file must not
// give wrong answers.
bool checkDebugFile(const std::string& path, const std::string& gnu, std::string* error) {
  auto id = BinaryIndex::identify(path, false);
  if (!id) {
    *error = path + ": not an ELF file";
    return false;
  }
  if (!gnu.empty() && id->gnu != gnu) {
    *error = path + ": build id " + (id->gnu.empty() ? "(none)" : id->gnu) + " does not match " + gnu;
    return false;
  }
  return true;
}

}  // namespace

SymbolLocator::SymbolLocator(const SymbolizerOptions& options, LocatorObserver* observer)
    : options_(options),
      observer_(observer),
      index_(options.binary_dirs, options.paths, options.not_found_ttl),
      debuginfod_(options.debuginfod) {}

LocateResult SymbolLocator::locate(const BinaryRef& ref) {
  Attempt a;
  a.gnu = ref.gnu_build_id;
  if (auto b = index_.find(ref)) a.binary = *b;
  if (a.binary.empty() && options_.trust_mapping_paths && fs::path(ref.path).is_absolute() && isFile(ref.path)) {
    auto id = BinaryIndex::identify(ref.path, false);
    if (!id) a.error = ref.path + ": not an ELF file";
    else if (ref.gnu_build_id.empty() || id->gnu == ref.gnu_build_id) a.binary = ref.path;
  }
  if (a.gnu.empty() && !a.binary.empty()) {
    if (auto id = BinaryIndex::identify(a.binary, false)) a.gnu = id->gnu;
  }
  tryStore(a.gnu, a);
  for (SourceKind source : options_.order) {
    if (a.done) break;
    switch (source) {
      case SourceKind::kDebugDirs: tryDebugDirs(a.gnu, a); break;
      case SourceKind::kBinaries: tryBinary(a); break;
      case SourceKind::kEmbedded: tryEmbedded(a); break;
      case SourceKind::kDebuginfod: tryDebuginfod(a.gnu, a); break;
    }
  }
  LocateResult r;
  if (a.best) {
    r.status = LookupStatus::kFound;
    r.module = std::move(a.best);
  } else if (!a.error.empty()) {
    r.status = LookupStatus::kError;
    r.error = std::move(a.error);
  }
  return r;
}

void SymbolLocator::tryDebugDirs(const std::string& gnu, Attempt& a) {
  if (gnu.size() < 4) return;
  const std::string rel = ".build-id/" + gnu.substr(0, 2) + "/" + gnu.substr(2) + ".debug";
  for (const auto& dir : options_.debug_dirs) {
    const std::string path = (fs::path(dir) / rel).string();
    if (!isFile(path)) continue;
    std::string err;
    if (!checkDebugFile(path, gnu, &err)) {
      if (a.error.empty()) a.error = err;
      continue;
    }
    a.consider(a.binary.empty() ? path : a.binary, path);
    if (a.done) return;
  }
}

void SymbolLocator::tryStore(const std::string& gnu, Attempt& a) {
  SymbolSource* store = options_.symbol_source;
  if (gnu.empty() || store == nullptr) return;
  auto debug = store->findSymbolFile(gnu, SymbolSource::Artifact::kDebuginfo);
  auto exe = a.binary.empty() ? store->findSymbolFile(gnu, SymbolSource::Artifact::kExecutable) : std::nullopt;
  std::string err;
  if (debug && !checkDebugFile(*debug, gnu, &err)) {
    if (a.error.empty()) a.error = err;
    debug.reset();
  }
  const std::string elf = !a.binary.empty() ? a.binary : exe ? *exe : debug ? *debug : "";
  if (!elf.empty()) a.consider(elf, debug ? *debug : "");
}

void SymbolLocator::tryBinary(Attempt& a) {
  if (a.binary.empty() || !options_.use_embedded_symbols) return;
  std::string err;
  auto m = ElfModule::open(a.binary, "", &err);
  if (!m) {
    if (a.error.empty()) a.error = err;
  } else if (m->hasDwarf()) {
    a.best = std::move(m);
    a.done = true;
  }
}

void SymbolLocator::tryEmbedded(Attempt& a) {
  if (a.binary.empty() || !options_.use_embedded_symbols) return;
  if (auto debug = findDebuglink(a.binary, a.gnu)) {
    a.consider(a.binary, *debug);
    if (a.done) return;
  }
  // The binary's own .symtab / .dynsym / .gnu_debugdata (MiniDebugInfo, read by libdwfl).
  a.consider(a.binary, "");
}

void SymbolLocator::tryDebuginfod(const std::string& gnu, Attempt& a) {
  if (gnu.empty() || !debuginfod_.enabled()) return;
  FetchResult debug = debuginfod_.fetchDebuginfo(gnu);
  if (!debug.path.empty()) {
    if (observer_) observer_->onDebuginfodFetch(debug.bytes);
    a.consider(a.binary.empty() ? debug.path : a.binary, debug.path);
    if (a.done || a.best) return;
  }
  if (!a.binary.empty()) return;  // the executable would add nothing the local binary lacks
  FetchResult exe = debuginfod_.fetchExecutable(gnu);
  if (!exe.path.empty()) {
    if (observer_) observer_->onDebuginfodFetch(exe.bytes);
    a.consider(exe.path, "");
  }
}

std::optional<std::string> SymbolLocator::findDebuglink(const std::string& binary, const std::string& gnu) const {
  int fd = open(binary.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  elf_version(EV_CURRENT);
  Elf* elf = elf_begin(fd, ELF_C_READ_MMAP, nullptr);
  std::string link;
  GElf_Word crc = 0;
  if (elf != nullptr) {
    const char* name = dwelf_elf_gnu_debuglink(elf, &crc);
    // A bare file name only: a link with '/' could point anywhere.
    if (name != nullptr && std::string_view(name).find('/') == std::string_view::npos) link = name;
    elf_end(elf);
  }
  close(fd);
  if (link.empty()) return std::nullopt;
  const fs::path dir = fs::path(binary).parent_path();
  std::vector<fs::path> candidates = {dir / link, dir / ".debug" / link};
  for (const auto& d : options_.debug_dirs) candidates.push_back(fs::path(d) / dir.relative_path() / link);
  for (const auto& c : candidates) {
    std::string err;
    if (c.string() != binary && isFile(c.string()) && checkDebugFile(c.string(), gnu, &err)) return c.string();
  }
  return std::nullopt;
}

}  // namespace proflow::symbolize
