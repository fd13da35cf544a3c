#include "extensions/symbolstore/elf_check.h"

#include <elf.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <gelf.h>
#include <libelf.h>
#include <unistd.h>

#include <cctype>

#include "core/util/hex.h"

namespace proflow::extensions::symbolstore {

namespace {

// The GNU build id of the first note segment or section that has one; "" when none.
std::string gnuBuildId(Elf* elf) {
  auto scan = [](Elf_Data* data) -> std::string {
    size_t offset = 0, name_off = 0, desc_off = 0;
    GElf_Nhdr nhdr;
    while (data != nullptr && (offset = gelf_getnote(data, offset, &nhdr, &name_off, &desc_off)) > 0) {
      const char* base = static_cast<const char*>(data->d_buf);
      if (nhdr.n_type == NT_GNU_BUILD_ID && nhdr.n_namesz == 4 && std::string_view(base + name_off, 4) == std::string_view("GNU\0", 4))
        return hexEncode(std::string_view(base + desc_off, nhdr.n_descsz));
    }
    return "";
  };
  Elf_Scn* scn = nullptr;
  while ((scn = elf_nextscn(elf, scn)) != nullptr) {
    GElf_Shdr shdr;
    if (gelf_getshdr(scn, &shdr) == nullptr || shdr.sh_type != SHT_NOTE) continue;
    if (std::string id = scan(elf_getdata(scn, nullptr)); !id.empty()) return id;
  }
  size_t phnum = 0;
  if (elf_getphdrnum(elf, &phnum) != 0) return "";
  for (size_t i = 0; i < phnum; ++i) {
    GElf_Phdr phdr;
    if (gelf_getphdr(elf, static_cast<int>(i), &phdr) == nullptr || phdr.p_type != PT_NOTE) continue;
    if (std::string id = scan(elf_getdata_rawchunk(elf, phdr.p_offset, phdr.p_filesz, ELF_T_NHDR)); !id.empty())
      return id;
  }
  return "";
}

}  // namespace

std::optional<std::string> normalizeBuildId(std::string_view untrusted) {
  if (untrusted.size() < 4 || untrusted.size() > 128 || untrusted.size() % 2 != 0) return std::nullopt;
  return hexLowercase(untrusted);
}

Status checkElfFile(const std::string& path, const std::string& expected_build_id, const char** reason) {
  const char* unused = nullptr;
  if (reason == nullptr) reason = &unused;
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Status::internal("cannot open the received file");
  elf_version(EV_CURRENT);
  Elf* elf = elf_begin(fd, ELF_C_READ_MMAP, nullptr);
  Status result;
  GElf_Ehdr ehdr;
  struct stat st;
  if (elf == nullptr || elf_kind(elf) != ELF_K_ELF || gelf_getehdr(elf, &ehdr) == nullptr) {
    result = Status::invalid("not an ELF file");
    *reason = "not_elf";
  } else if (fstat(fd, &st) != 0 ||
             ehdr.e_shoff + static_cast<uint64_t>(ehdr.e_shnum) * ehdr.e_shentsize > static_cast<uint64_t>(st.st_size) ||
             ehdr.e_phoff + static_cast<uint64_t>(ehdr.e_phnum) * ehdr.e_phentsize > static_cast<uint64_t>(st.st_size)) {
    result = Status::invalid("truncated ELF file: its headers point past the end of the " +
                             std::to_string(st.st_size) + " bytes received");
    *reason = "not_elf";
  } else {
    std::string id = gnuBuildId(elf);
    if (id.empty()) {
      result = Status::invalid("the ELF file has no GNU build id note (link with -Wl,--build-id)");
      *reason = "no_build_id";
    } else if (id != expected_build_id) {
      result = Status::invalid("build id mismatch: the file's GNU build id is " + id + ", the upload names " +
                               expected_build_id);
      *reason = "build_id_mismatch";
    }
  }
  if (elf != nullptr) elf_end(elf);
  close(fd);
  return result;
}

}  // namespace proflow::extensions::symbolstore
