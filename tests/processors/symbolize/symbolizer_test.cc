// The symbolizer library against llvm-symbolizer-14 on real g++ output: every instruction of every
// function, through each symbol source, plus the cache's single-flight, LRU and not-found behaviour.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <thread>

#include "processors/symbolize/build_id.h"
#include "processors/symbolize/symbolizer.h"
#include "tests/processors/symbolize/test_programs.h"
#include "tests/support/temp_dir.h"

namespace proflow::symbolize {
namespace {

using testing::buildPrograms;
using testing::describe;
using testing::Programs;

namespace fs = std::filesystem;

bool sameSource(const Frames& a, const Frames& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].function != b[i].function || a[i].file != b[i].file || a[i].line != b[i].line ||
        a[i].column != b[i].column)
      return false;
  return true;
}

class CountingObserver : public SymbolizerObserver {
 public:
  void onCacheHit() override { ++hits; }
  void onCacheMiss() override { ++misses; }
  void onDebuginfodFetch(uint64_t) override { ++fetches; }
  std::atomic<int> hits{0}, misses{0}, fetches{0};
};

class SymbolizerTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    for (const char* tool : {"g++", "gcc", "llvm-symbolizer-14", "objcopy", "objdump", "nm", "readelf", "strip"})
      if (std::string m = testing::missingTool(tool); !m.empty()) tool_error_ += m + "\n";
    if (!tool_error_.empty()) return;
    dir_ = new proflow::testing::TempDir();
    programs_ = buildPrograms(dir_->path().string());
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }
  void SetUp() override {
    ASSERT_TRUE(tool_error_.empty()) << tool_error_;
    ASSERT_TRUE(programs_.error.empty()) << programs_.error;
  }

  // Symbolizes every function instruction of `reference` (an unstripped binary) through `opts`
  // and `ref`, and compares each answer with llvm-symbolizer on `reference`.
  static void expectMatchesLlvm(const SymbolizerOptions& opts, const BinaryRef& ref, const std::string& reference,
                                size_t min_inlined = 1) {
    const auto addresses = testing::functionAddresses(reference);
    ASSERT_GT(addresses.size(), 20u);
    const auto expected = testing::llvmFrames(reference, addresses);
    ASSERT_EQ(expected.size(), addresses.size());
    Symbolizer s(opts);
    size_t inlined = 0;
    for (size_t i = 0; i < addresses.size(); ++i) {
      auto r = s.symbolize(ref, addresses[i], AddressKind::kElfVirtual);
      ASSERT_EQ(r.status, LookupStatus::kFound) << r.error;
      EXPECT_TRUE(sameSource(*r.frames, expected[i]))
          << std::hex << "address 0x" << addresses[i] << "\nours:\n" << describe(*r.frames) << "llvm:\n"
          << describe(expected[i]);
      inlined += r.frames->size() > 1;
    }
    EXPECT_GE(inlined, min_inlined) << "the workload must exercise inline chains";
  }

  static inline proflow::testing::TempDir* dir_ = nullptr;
  static inline Programs programs_;
  static inline std::string tool_error_;
};

TEST_F(SymbolizerTest, EmbeddedDwarfOfLocalBinariesMatchesLlvm) {
  SymbolizerOptions opts;
  opts.paths = {programs_.app, programs_.shlib, programs_.cprog};
  expectMatchesLlvm(opts, {.gnu_build_id = testing::buildIdOf(programs_.app)}, programs_.app);
  expectMatchesLlvm(opts, {.gnu_build_id = testing::buildIdOf(programs_.shlib)}, programs_.shlib);
  expectMatchesLlvm(opts, {.gnu_build_id = testing::buildIdOf(programs_.cprog)}, programs_.cprog, 0);
}

TEST_F(SymbolizerTest, SeparateDebugFileUnderBuildIdDirMatchesLlvm) {
  proflow::testing::TempDir t;
  const std::string id = testing::buildIdOf(programs_.app);
  ASSERT_FALSE(id.empty());
  const fs::path debug = t.path() / "debug" / ".build-id" / id.substr(0, 2) / (id.substr(2) + ".debug");
  fs::create_directories(debug.parent_path());
  const std::string stripped = t.file("app");
  ASSERT_EQ(testing::run("objcopy --only-keep-debug " + programs_.app + " " + debug.string()).status, 0);
  ASSERT_EQ(testing::run("strip --strip-all -o " + stripped + " " + programs_.app).status, 0);
  SymbolizerOptions opts;
  opts.debug_dirs = {t.file("debug")};
  // Debug file alone (the usual gateway case: no binary at hand).
  expectMatchesLlvm(opts, {.gnu_build_id = id}, programs_.app);
  // Stripped binary found locally plus its debug file.
  opts.binary_dirs = {t.path().string()};
  expectMatchesLlvm(opts, {.gnu_build_id = id}, programs_.app);
}

TEST_F(SymbolizerTest, DebuglinkFileNextToStrippedBinary) {
  proflow::testing::TempDir t;
  const std::string bin = t.file("cprog"), dbg = t.file("cprog.dbg");
  ASSERT_EQ(testing::run("objcopy --only-keep-debug " + programs_.cprog + " " + dbg).status, 0);
  ASSERT_EQ(testing::run("strip --strip-all -o " + bin + " " + programs_.cprog).status, 0);
  ASSERT_EQ(testing::run("cd " + t.path().string() + " && objcopy --add-gnu-debuglink=cprog.dbg cprog").status, 0);
  SymbolizerOptions opts;
  opts.paths = {bin};
  expectMatchesLlvm(opts, {.gnu_build_id = testing::buildIdOf(bin)}, programs_.cprog, 0);
}

TEST_F(SymbolizerTest, GoBinaryByGoBuildIdMatchesLlvm) {
  ASSERT_EQ(testing::missingTool("go"), "");
  proflow::testing::TempDir t;
  const std::string bin = t.file("goprog"), stripped = t.file("goprog-nodwarf");
  ASSERT_EQ(testing::buildGoProgram(bin), "");
  ASSERT_EQ(testing::buildGoProgram(stripped, "-w"), "");  // symbol table only
  const auto go_id = testing::run("go tool buildid " + bin);
  ASSERT_EQ(go_id.status, 0) << go_id.output;
  const std::string id = go_id.output.substr(0, go_id.output.find('\n'));
  SymbolizerOptions opts;
  opts.paths = {bin};
  const auto addresses = testing::functionAddresses(bin, 4000, 23);
  ASSERT_GT(addresses.size(), 1000u);
  const auto expected = testing::llvmFrames(bin, addresses);
  Symbolizer s(opts);
  size_t with_lines = 0;
  for (size_t i = 0; i < addresses.size(); ++i) {
    auto r = s.symbolize({.go_build_id = id}, addresses[i], AddressKind::kElfVirtual);
    ASSERT_EQ(r.status, LookupStatus::kFound) << r.error;
    EXPECT_TRUE(sameSource(*r.frames, expected[i])) << std::hex << addresses[i] << describe(*r.frames)
                                                    << describe(expected[i]);
    with_lines += !r.frames->empty() && r.frames->front().line > 0;
  }
  EXPECT_GT(with_lines, addresses.size() / 2) << "Go DWARF line tables must be read";
  // Without DWARF: names from the Go symbol table.
  SymbolizerOptions sym_opts;
  sym_opts.paths = {stripped};
  Symbolizer s2(sym_opts);
  const auto addrs2 = testing::functionAddresses(stripped, 500, 7);
  const auto expected2 = testing::llvmFrames(stripped, addrs2);
  const auto id2 = testing::run("go tool buildid " + stripped).output;
  for (size_t i = 0; i < addrs2.size(); ++i) {
    auto r = s2.symbolize({.go_build_id = id2.substr(0, id2.find('\n'))}, addrs2[i], AddressKind::kElfVirtual);
    ASSERT_EQ(r.status, LookupStatus::kFound);
    EXPECT_TRUE(sameSource(*r.frames, expected2[i])) << describe(*r.frames) << describe(expected2[i]);
  }
}

TEST_F(SymbolizerTest, HtlhashFindsLocalBinary) {
  // The eBPF profiler's file id, computed independently with coreutils: SHA-256 of the first and
  // last 4096 bytes and the big-endian 64-bit length, first 16 bytes in hex.
  const std::string f = programs_.cprog;
  const auto size = fs::file_size(f);
  std::string printf_arg;  // octal escapes: the shell may be dash, whose printf has no \x
  for (int i = 7; i >= 0; --i) {
    char byte[8];
    std::snprintf(byte, sizeof byte, "\\%03o", static_cast<unsigned>((size >> (8 * i)) & 0xff));
    printf_arg += byte;
  }
  auto r = testing::run("(head -c 4096 " + f + "; tail -c 4096 " + f + "; printf '" + printf_arg +
                        "') | sha256sum | cut -c1-32");
  ASSERT_EQ(r.status, 0) << r.output;
  const std::string htl = r.output.substr(0, 32);
  EXPECT_EQ(htlhashOfFile(f).value_or(""), htl);
  SymbolizerOptions opts;
  opts.binary_dirs = {fs::path(f).parent_path().string()};
  Symbolizer s(opts);
  std::string upper = htl;
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  auto m = s.module({.htlhash = upper});  // producers write it in upper case too
  ASSERT_EQ(m.status, LookupStatus::kFound);
  EXPECT_FALSE(Symbolizer::symbolize(*m.module, testing::functionAddresses(f, 1)[0], AddressKind::kElfVirtual, {})
                   ->empty());
}

TEST_F(SymbolizerTest, StalledDebuginfodServerTimesOut) {
  // A server that accepts connections and never answers: the lookup must end (not found) after
  // the configured timeout instead of blocking a worker forever.
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t alen = sizeof addr;
  ASSERT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  ASSERT_EQ(listen(fd, 16), 0);
  ASSERT_EQ(getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &alen), 0);
  proflow::testing::TempDir cache;
  SymbolizerOptions opts;
  opts.debuginfod.urls = {"http://127.0.0.1:" + std::to_string(ntohs(addr.sin_port))};
  opts.debuginfod.timeout = std::chrono::seconds(1);
  opts.debuginfod.cache_dir = cache.path().string();
  CountingObserver obs;
  Symbolizer s(opts, &obs);
  auto r = s.module({.gnu_build_id = "0123456789abcdef0123456789abcdef01234567"});
  EXPECT_NE(r.status, LookupStatus::kFound);
  EXPECT_EQ(obs.fetches.load(), 0);
  close(fd);
}

TEST_F(SymbolizerTest, RuntimeAddressesTranslateThroughLoadSegments) {
  SymbolizerOptions opts;
  opts.paths = {programs_.shlib};
  Symbolizer s(opts);
  const auto seg = testing::textSegment(programs_.shlib);
  ASSERT_GT(seg.memsz, 0u);
  const uint64_t base = 0x7f3a12340000;  // where the process mapped the library
  const MappingRange mapping{base + (seg.vaddr & ~0xfffULL), base + seg.vaddr + seg.memsz, seg.offset & ~0xfffULL};
  const BinaryRef ref{.gnu_build_id = testing::buildIdOf(programs_.shlib)};
  for (uint64_t a : testing::functionAddresses(programs_.shlib, 40)) {
    auto elf = s.symbolize(ref, a, AddressKind::kElfVirtual);
    auto runtime = s.symbolize(ref, base + a, AddressKind::kRuntime, mapping);
    ASSERT_FALSE(elf.frames->empty());
    EXPECT_TRUE(sameSource(*elf.frames, *runtime.frames)) << std::hex << a;
  }
  EXPECT_TRUE(s.symbolize(ref, base - 0x1000, AddressKind::kRuntime, mapping).frames->empty());
}

TEST_F(SymbolizerTest, NamesAreDemangledWithMangledSystemName) {
  SymbolizerOptions opts;
  opts.paths = {programs_.app};
  Symbolizer s(opts);
  const BinaryRef ref{.gnu_build_id = testing::buildIdOf(programs_.app)};
  bool saw_template = false;
  for (uint64_t a : testing::functionAddresses(programs_.app))
    for (const auto& f : *s.symbolize(ref, a, AddressKind::kElfVirtual).frames)
      if (f.function == "long work::sumSquares<long>(int)") {
        saw_template = true;
        EXPECT_EQ(f.system_name, "_ZN4work10sumSquaresIlEET_i");
      }
  EXPECT_TRUE(saw_template);
}

TEST_F(SymbolizerTest, SymbolTableOnlyBinaryGivesFunctionNames) {
  proflow::testing::TempDir t;
  const std::string bin = t.file("app");
  ASSERT_EQ(testing::run("strip --strip-debug -o " + bin + " " + programs_.app).status, 0);
  SymbolizerOptions opts;
  opts.paths = {bin};
  Symbolizer s(opts);
  const BinaryRef ref{.gnu_build_id = testing::buildIdOf(bin)};
  const auto addresses = testing::functionAddresses(bin);
  const auto expected = testing::llvmFrames(bin, addresses);
  for (size_t i = 0; i < addresses.size(); ++i) {
    auto r = s.symbolize(ref, addresses[i], AddressKind::kElfVirtual);
    ASSERT_EQ(r.status, LookupStatus::kFound);
    EXPECT_TRUE(sameSource(*r.frames, expected[i])) << describe(*r.frames) << describe(expected[i]);
  }
}

TEST_F(SymbolizerTest, UnknownBuildIdIsNotFoundAndRemembered) {
  CountingObserver obs;
  SymbolizerOptions opts;
  opts.paths = {programs_.app};
  Symbolizer s(opts, &obs);
  const BinaryRef ref{.gnu_build_id = "00112233445566778899aabbccddeeff00112233"};
  EXPECT_EQ(s.module(ref).status, LookupStatus::kNotFound);
  EXPECT_EQ(s.module(ref).status, LookupStatus::kNotFound);
  EXPECT_EQ(obs.misses.load(), 1);
  EXPECT_EQ(obs.hits.load(), 1);
}

TEST_F(SymbolizerTest, NotFoundEntriesExpireAfterTtl) {
  CountingObserver obs;
  SymbolizerOptions opts;
  opts.not_found_ttl = std::chrono::nanoseconds(0);
  Symbolizer s(opts, &obs);
  const BinaryRef ref{.gnu_build_id = "00112233445566778899aabbccddeeff00112233"};
  s.module(ref);
  s.module(ref);
  EXPECT_EQ(obs.misses.load(), 2);
}

TEST_F(SymbolizerTest, CorruptDebugFileIsACleanError) {
  proflow::testing::TempDir t;
  const std::string id = "abcdef0123456789abcdef0123456789abcdef01";
  fs::create_directories(t.path() / ".build-id" / "ab");
  std::ofstream(t.path() / ".build-id" / "ab" / (id.substr(2) + ".debug")) << "\x7f" "ELF garbage, not an ELF file";
  // And a truncated real ELF found by path.
  const std::string truncated = t.file("truncated");
  ASSERT_EQ(testing::run("head -c 3000 " + programs_.app + " > " + truncated).status, 0);
  SymbolizerOptions opts;
  opts.debug_dirs = {t.path().string()};
  opts.trust_mapping_paths = true;
  Symbolizer s(opts);
  auto r = s.module({.gnu_build_id = id});
  EXPECT_EQ(r.status, LookupStatus::kError);
  EXPECT_NE(r.error.find("not an ELF"), std::string::npos) << r.error;
  auto r2 = s.symbolize({.path = truncated}, 0x1000, AddressKind::kElfVirtual);
  EXPECT_EQ(r2.status, LookupStatus::kError) << r2.error;
  EXPECT_FALSE(r2.error.empty());
}

TEST_F(SymbolizerTest, UntrustedBuildIdsAreValidatedBeforeUse) {
  EXPECT_FALSE(normalizeGnuBuildId("../../etc/passwd"));
  EXPECT_FALSE(normalizeGnuBuildId("abc"));                     // odd length
  EXPECT_FALSE(normalizeGnuBuildId("ab"));                      // 1 byte
  EXPECT_FALSE(normalizeGnuBuildId(std::string(130, 'a')));     // 65 bytes
  EXPECT_FALSE(normalizeGnuBuildId("abcd/0"));
  EXPECT_EQ(normalizeGnuBuildId("ABCD").value_or(""), "abcd");
  EXPECT_EQ(normalizeGnuBuildId(std::string(128, 'f')).value_or(""), std::string(128, 'f'));
  EXPECT_FALSE(normalizeHtlhash("600DCAFE"));
  EXPECT_EQ(normalizeHtlhash("600DCAFE4A110000F2BF38C493F5FB92").value_or(""), "600dcafe4a110000f2bf38c493f5fb92");
  SymbolizerOptions opts;
  opts.debug_dirs = {"/"};
  Symbolizer s(opts);
  EXPECT_EQ(s.module({.gnu_build_id = "../../../../etc/passwd"}).status, LookupStatus::kNotFound);
}

TEST_F(SymbolizerTest, ConcurrentLookupsOfOneBinaryLoadItOnce) {
  CountingObserver obs;
  SymbolizerOptions opts;
  opts.paths = {programs_.app};
  Symbolizer s(opts, &obs);
  const BinaryRef ref{.gnu_build_id = testing::buildIdOf(programs_.app)};
  std::vector<std::thread> threads;
  std::atomic<int> found{0};
  for (int i = 0; i < 8; ++i)
    threads.emplace_back([&] { found += s.module(ref).status == LookupStatus::kFound; });
  for (auto& t : threads) t.join();
  EXPECT_EQ(found.load(), 8);
  EXPECT_EQ(obs.misses.load(), 1);
  EXPECT_EQ(obs.hits.load(), 7);
}

TEST_F(SymbolizerTest, CacheEvictsLeastRecentlyUsedBeyondBudget) {
  CountingObserver obs;
  SymbolizerOptions opts;
  opts.paths = {programs_.app, programs_.cprog};
  opts.cache_size_bytes = 1;  // room for one module at a time
  Symbolizer s(opts, &obs);
  const BinaryRef app{.gnu_build_id = testing::buildIdOf(programs_.app)};
  const BinaryRef c{.gnu_build_id = testing::buildIdOf(programs_.cprog)};
  auto held = s.module(app).module;  // a module in use stays valid after eviction
  s.module(c);
  s.module(c);
  s.module(app);
  EXPECT_EQ(obs.misses.load(), 3);
  EXPECT_EQ(obs.hits.load(), 1);
  ASSERT_TRUE(held);
  EXPECT_FALSE(Symbolizer::symbolize(*held, testing::functionAddresses(programs_.app, 1)[0],
                                     AddressKind::kElfVirtual, {})
                   ->empty());
}

}  // namespace
}  // namespace proflow::symbolize
