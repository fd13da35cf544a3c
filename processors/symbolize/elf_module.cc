#include "processors/symbolize/elf_module.h"

#include <cxxabi.h>
#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <gelf.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>

#ifdef PROFLOW_HAVE_LLVM_DEMANGLE
#include <llvm/Demangle/Demangle.h>
#endif

namespace proflow::symbolize {
namespace {

// Memoized answers per module are dropped past this size; the module cache bounds the rest.
constexpr size_t kMemoLimitBytes = 64u << 20;

// libdwfl asks this for the DWARF of a module whose own file has none. We answer only with the
// debug file our locator chose: the standard callback would also try debuginfod on its own (when
// DEBUGINFOD_URLS is set), a network call we want to control ourselves.
int findDebuginfo(Dwfl_Module*, void** userdata, const char*, Dwarf_Addr, const char*, const char*, GElf_Word,
                  char** debuginfo_file_name) {
  const auto* path = static_cast<const std::string*>(*userdata);
  if (path == nullptr || path->empty()) return -1;
  int fd = ::open(path->c_str(), O_RDONLY | O_CLOEXEC);
  if (fd >= 0) *debuginfo_file_name = strdup(path->c_str());
  return fd;
}

int noElf(Dwfl_Module*, void**, const char*, Dwarf_Addr, char**, Elf**) { return -1; }

const Dwfl_Callbacks kCallbacks = {
    .find_elf = noElf,
    .find_debuginfo = findDebuginfo,
    .section_address = dwfl_offline_section_address,
    .debuginfo_path = nullptr,
};

size_t fileSize(const std::string& path) {
  struct stat st;
  return !path.empty() && stat(path.c_str(), &st) == 0 ? static_cast<size_t>(st.st_size) : 0;
}

size_t framesBytes(const Frames& frames) {
  size_t n = 96;
  for (const auto& f : frames) n += sizeof(Frame) + f.function.size() + f.system_name.size() + f.file.size();
  return n;
}

// libelf opens a truncated file without complaint; its section headers then lie past the end.
bool headersWithinFile(Elf* elf, size_t file_size) {
  GElf_Ehdr ehdr;
  if (gelf_getehdr(elf, &ehdr) == nullptr) return false;
  const uint64_t sh_end = ehdr.e_shoff + uint64_t{ehdr.e_shnum} * ehdr.e_shentsize;
  const uint64_t ph_end = ehdr.e_phoff + uint64_t{ehdr.e_phnum} * ehdr.e_phentsize;
  return sh_end <= file_size && ph_end <= file_size;
}

}  // namespace

std::string demangle(const std::string& name) {
  if (name.size() < 2 || name[0] != '_' || name[1] != 'Z') return name;
  int status = 0;
#ifdef PROFLOW_HAVE_LLVM_DEMANGLE
  // LLVM's demangler, so names read exactly as llvm-symbolizer (and pprof through it) prints them.
  char* out = llvm::itaniumDemangle(name.c_str(), nullptr, nullptr, &status);
#else
  char* out = abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status);
#endif
  std::string result = (status == 0 && out != nullptr) ? std::string(out) : name;
  std::free(out);
  return result;
}

std::unique_ptr<ElfModule> ElfModule::open(const std::string& elf_path, const std::string& debug_path,
                                           std::string* error) {
  std::unique_ptr<ElfModule> m(new ElfModule());
  m->debug_path_ = debug_path == elf_path ? std::string() : debug_path;
  if (!m->load(elf_path, error)) return nullptr;
  return m;
}

ElfModule::~ElfModule() {
  if (dwfl_ != nullptr) dwfl_end(dwfl_);
}

bool ElfModule::load(const std::string& elf_path, std::string* error) {
  dwfl_ = dwfl_begin(&kCallbacks);
  if (dwfl_ == nullptr) {
    *error = std::string("dwfl_begin: ") + dwfl_errmsg(-1);
    return false;
  }
  dwfl_report_begin(dwfl_);
  module_ = dwfl_report_offline(dwfl_, "module", elf_path.c_str(), -1);
  dwfl_report_end(dwfl_, nullptr, nullptr);
  if (module_ == nullptr) {
    *error = elf_path + ": not a usable ELF file (" + dwfl_errmsg(-1) + ")";
    return false;
  }
  void** userdata = nullptr;
  dwfl_module_info(module_, &userdata, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr);
  *userdata = &debug_path_;

  GElf_Addr bias = 0;
  Elf* elf = dwfl_module_getelf(module_, &bias);
  size_t phnum = 0;
  if (elf == nullptr || elf_getphdrnum(elf, &phnum) != 0) {
    *error = elf_path + ": cannot read ELF headers (" + dwfl_errmsg(-1) + ")";
    return false;
  }
  bias_ = bias;
  if (!headersWithinFile(elf, fileSize(elf_path))) {
    *error = elf_path + ": truncated or corrupt ELF (section headers beyond the end of the file)";
    return false;
  }
  for (size_t i = 0; i < phnum; ++i) {
    GElf_Phdr phdr;
    if (gelf_getphdr(elf, static_cast<int>(i), &phdr) != nullptr && phdr.p_type == PT_LOAD)
      segments_.push_back({phdr.p_vaddr, phdr.p_offset, phdr.p_filesz});
  }
  Dwarf_Addr dwbias = 0;
  has_dwarf_ = dwfl_module_getdwarf(module_, &dwbias) != nullptr;
  has_symbols_ = dwfl_module_getsymtab(module_) > 0;
  file_bytes_ = fileSize(elf_path) + fileSize(debug_path_);
  return true;
}

std::optional<uint64_t> ElfModule::toElfAddress(uint64_t address, AddressKind kind,
                                                const MappingRange& mapping) const {
  if (kind == AddressKind::kElfVirtual) return address;
  if (address < mapping.memory_start) return std::nullopt;
  // The address's offset in the file, then the PT_LOAD segment that maps that file offset.
  const uint64_t file_offset = address - mapping.memory_start + mapping.file_offset;
  for (const auto& s : segments_)
    if (file_offset >= s.offset && file_offset < s.offset + s.filesz) return file_offset - s.offset + s.vaddr;
  return std::nullopt;
}

FramesPtr ElfModule::symbolize(uint64_t elf_address) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = memo_.find(elf_address);
  if (it != memo_.end()) return it->second;
  auto frames = std::make_shared<const Frames>(lookup(elf_address));
  if (memo_bytes_ > kMemoLimitBytes) {
    memo_.clear();
    memo_bytes_ = 0;
  }
  memo_bytes_ += framesBytes(*frames);
  memo_.emplace(elf_address, frames);
  return frames;
}

Frames ElfModule::lookup(uint64_t elf_address) {
  Frames out;
  const uint64_t pc = elf_address + bias_;
  CuRef storage;
  CuRef* cu = has_dwarf_ ? findCu(pc, &storage) : nullptr;
  Dwarf_Die function;
  if (cu != nullptr && findFunction(*cu, pc, &function) && appendDwarfFrames(module_, *cu, &function, pc, out)) {
    // As llvm-symbolizer does, the out-of-line function is named after the symbol table entry
    // covering the address when there is one: it names clones (.isra, .cold, .constprop) exactly.
    Frames sym;
    symtabFrame(pc, sym);
    if (!sym.empty()) {
      out.back().function = std::move(sym[0].function);
      out.back().system_name = std::move(sym[0].system_name);
      if (out.back().file.empty()) out.back().file = std::move(sym[0].file);
    }
    return out;
  }
  symtabFrame(pc, out);
  // Code no DWARF function covers (padding, assembly) may still be in a line table.
  if (cu != nullptr) appendLineInfo(*cu, pc, out);
  return out;
}

CuRef* ElfModule::findCu(uint64_t pc, CuRef* storage) {
  Dwarf_Addr bias = 0;
  if (Dwarf_Die* die = dwfl_module_addrdie(module_, pc, &bias)) {
    *storage = CuRef{*die, bias};
    return storage;
  }
  Dwarf* dwarf = dwfl_module_getdwarf(module_, &bias);
  if (dwarf == nullptr) return nullptr;
  if (!cu_index_) cu_index_ = std::make_unique<CuIndex>(dwarf);
  auto offset = cu_index_->find(pc - bias);
  if (!offset || dwarf_offdie(dwarf, *offset, &storage->die) == nullptr) return nullptr;
  storage->bias = bias;
  return storage;
}

bool ElfModule::findFunction(const CuRef& cu, uint64_t pc, Dwarf_Die* function) {
  Dwarf_Die die = cu.die;
  auto& index = functions_[dwarf_dieoffset(&die)];
  if (!index) {
    index = std::make_unique<FunctionIndex>(&die);
    index_bytes_ += index->bytes() + 64;
  }
  auto offset = index->find(pc - cu.bias);
  return offset && dwarf_offdie(dwarf_cu_getdwarf(die.cu), *offset, function) != nullptr;
}

void ElfModule::symtabFrame(uint64_t pc, Frames& out) {
  if (!symbols_) {
    symbols_ = std::make_unique<SymbolIndex>(module_);
    index_bytes_ += symbols_->bytes();
  }
  auto sym = symbols_->find(pc);
  if (!sym) return;
  Frame f;
  f.function = demangle(sym->name);
  if (f.function != sym->name) f.system_name = sym->name;
  if (sym->file != nullptr) f.file = sym->file;
  out.push_back(std::move(f));
}

size_t ElfModule::memoryEstimate() const {
  std::lock_guard<std::mutex> lock(mu_);
  return file_bytes_ + memo_bytes_ + memo_.size() * 48 + index_bytes_;
}

}  // namespace proflow::symbolize
