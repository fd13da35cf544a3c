// End to end on a real profile: the C++ workload runs under gperftools' CPU profiler
// (libgoogle-perftools-dev), its samples (runtime return addresses of an ASLR'd PIE and a shared
// library, plus the process's memory map) become an unsymbolized OTLP request, and the processor's
// answer for every location must equal llvm-symbolizer-14's for the same code.
#include <gtest/gtest.h>
#include <spdlog/spdlog.h>

#include <cstring>
#include <map>
#include <set>
#include <sstream>

#include "core/config/component_config.h"
#include "tests/support/dictionary_builder.h"
#include "core/runtime/runtime.h"
#include "core/telemetry/component_telemetry.h"
#include "processors/symbolize/config.h"
#include "processors/symbolize/factory.h"
#include "tests/processors/symbolize/test_programs.h"
#include "tests/support/temp_dir.h"
#include "tests/support/flat_request.h"

namespace proflow::symbolize {
namespace {

struct MapEntry {
  uint64_t start, limit, offset;
  std::string path;
};

struct LegacyProfile {
  std::vector<std::vector<uint64_t>> stacks;  // leaf first, runtime addresses
  std::vector<MapEntry> executable_maps;      // r-xp entries of /proc/self/maps
};

// gperftools' CPU profile: 64-bit words (header 0,3,0,period,0; records count,depth,pcs...;
// trailer 0,1,0), then the text of /proc/self/maps.
bool parseLegacyProfile(const std::string& data, LegacyProfile* out) {
  auto word = [&](size_t i) {
    uint64_t w = 0;
    std::memcpy(&w, data.data() + i * 8, 8);
    return w;
  };
  const size_t words = data.size() / 8;
  if (words < 8 || word(0) != 0 || word(1) != 3) return false;
  size_t i = 5;
  while (i + 2 < words) {
    const uint64_t count = word(i), depth = word(i + 1);
    if (count == 0 && depth == 1 && word(i + 2) == 0) {
      i += 3;
      break;
    }
    if (i + 2 + depth > words) return false;
    std::vector<uint64_t> stack;
    for (uint64_t d = 0; d < depth; ++d) stack.push_back(word(i + 2 + d));
    out->stacks.push_back(std::move(stack));
    i += 2 + depth;
  }
  std::istringstream maps(data.substr(i * 8));
  for (std::string line; std::getline(maps, line);) {
    std::istringstream ls(line);
    std::string range, perms, offset, dev, inode, path;
    if (!(ls >> range >> perms >> offset >> dev >> inode >> path) || perms.find('x') == std::string::npos) continue;
    const size_t dash = range.find('-');
    out->executable_maps.push_back({std::stoull(range.substr(0, dash), nullptr, 16),
                                    std::stoull(range.substr(dash + 1), nullptr, 16), std::stoull(offset, nullptr, 16),
                                    path});
  }
  return !out->stacks.empty();
}

class Capture : public ProfilesConsumer {
 public:
  Status consume(Batch b) override {
    last = std::move(b);
    return Status::ok();
  }
  Batch last;
};

TEST(SymbolizeProfileTest, GperftoolsCpuProfileSymbolizedLikeLlvm) {
  for (const char* tool : {"g++", "gcc", "llvm-symbolizer-14", "readelf", "objdump", "nm"})
    ASSERT_EQ(testing::missingTool(tool), "");
  const std::string profiler = testing::run("gcc -print-file-name=libprofiler.so").output;
  const std::string libprofiler = profiler.substr(0, profiler.find('\n'));
  ASSERT_EQ(testing::run("test -f " + libprofiler).status, 0)
      << "libprofiler.so not found: install the Debian package libgoogle-perftools-dev";

  proflow::testing::TempDir dir;
  auto programs = testing::buildPrograms(dir.path().string());
  ASSERT_TRUE(programs.error.empty()) << programs.error;
  const std::string prof = dir.file("cpu.prof");
  auto ran = testing::run("CPUPROFILE=" + prof + " CPUPROFILE_FREQUENCY=4000 LD_PRELOAD=" + libprofiler + " " +
                          programs.app + " 300000");
  ASSERT_EQ(ran.status, 0) << ran.output;
  LegacyProfile profile;
  ASSERT_TRUE(parseLegacyProfile(proflow::testing::readFile(prof), &profile));

  // One mapping per executable segment of our two binaries; other libraries' frames are left out.
  otlp::Request req;
  DictionaryBuilder b(req.mutable_dictionary());
  std::map<std::string, int32_t> mapping_of;
  std::vector<MapEntry> ours;
  for (const auto& m : profile.executable_maps) {
    if (m.path != programs.app && m.path != programs.shlib) continue;
    otlp::Mapping mapping;
    mapping.set_memory_start(m.start);
    mapping.set_memory_limit(m.limit);
    mapping.set_file_offset(m.offset);
    mapping.set_filename_strindex(b.string(m.path.substr(m.path.rfind('/') + 1)));
    mapping.add_attribute_indices(b.stringAttribute("process.executable.build_id.gnu", testing::buildIdOf(m.path)));
    mapping_of[m.path] = b.mapping(mapping);
    ours.push_back(m);
  }
  ASSERT_EQ(ours.size(), 2u) << "the profile's memory map must show app and libshape.so";
  auto* p = req.add_resource_profiles()->add_scope_profiles()->add_profiles();
  // Expected answers, computed on ELF addresses derived from the memory map and PT_LOAD headers.
  std::map<uint64_t, std::pair<std::string, uint64_t>> elf_of;  // runtime address -> (binary, ELF vaddr)
  for (const auto& stack : profile.stacks) {
    std::vector<int32_t> locs;
    for (size_t d = 0; d < stack.size(); ++d) {
      // Callers' entries are return addresses: step back into the call instruction, as pprof does.
      const uint64_t a = d == 0 ? stack[d] : stack[d] - 1;
      for (const auto& m : ours) {
        if (a < m.start || a >= m.limit) continue;
        const auto seg = testing::textSegment(m.path);
        elf_of[a] = {m.path, a - m.start + m.offset - seg.offset + seg.vaddr};
        otlp::Location l;
        l.set_mapping_index(mapping_of[m.path]);
        l.set_address(a);
        locs.push_back(b.location(l));
      }
    }
    if (locs.empty()) continue;
    auto* s = p->add_samples();
    s->set_stack_index(b.stack(locs));
    s->add_values(1);
  }
  ASSERT_GE(elf_of.size(), 5u) << "too few samples in our code: " << ran.output;

  telemetry::MetricsRegistry registry;
  telemetry::ComponentTelemetry tel(registry, ComponentKind::kProcessor, "symbolize");
  Runtime runtime(1, 1);
  auto capture = std::make_shared<Capture>();
  SymbolizeConfig cfg;
  cfg.debug_dirs = {};
  cfg.binary_dirs = {dir.path().string()};
  auto factory = makeSymbolizeProcessorFactory();
  config::TypedConfig<SymbolizeConfig> typed(cfg);
  auto proc = dynamic_cast<ProcessorFactory&>(*factory).create(
      {ComponentId{"symbolize", ""}, ComponentKind::kProcessor, spdlog::default_logger(), &tel, &runtime}, typed,
      capture);
  ASSERT_TRUE(proc->consume(::proflow::testing::batchOf(std::move(req))).isOk());

  const otlp::Request out = ::proflow::testing::requestOf(capture->last);
  const auto& d = out.dictionary();
  size_t checked = 0, inlined = 0;
  for (const auto& loc : d.location_table()) {
    if (loc.address() == 0) continue;
    const auto& [binary, elf] = elf_of.at(loc.address());
    const Frames want = testing::llvmFrames(binary, {elf}).at(0);
    Frames got;
    for (const auto& line : loc.lines()) {
      const auto& fn = d.function_table(line.function_index());
      got.push_back({std::string(dictString(d, fn.name_strindex())), "", std::string(dictString(d, fn.filename_strindex())),
                     line.line(), line.column()});
    }
    ASSERT_EQ(got.size(), want.size()) << std::hex << loc.address() << "\n" << testing::describe(got) << testing::describe(want);
    for (size_t i = 0; i < got.size(); ++i) {
      EXPECT_EQ(got[i].function, want[i].function);
      EXPECT_EQ(got[i].file, want[i].file);
      EXPECT_EQ(got[i].line, want[i].line);
      EXPECT_EQ(got[i].column, want[i].column);
    }
    inlined += got.size() > 1;
    ++checked;
  }
  EXPECT_EQ(checked, elf_of.size());
  EXPECT_GT(inlined, 0u) << "the profile should hit inlined code";
  EXPECT_EQ(registry.value(tel.prefix() + "symbolize_locations_symbolized_total", tel.labels()), checked);
}

}  // namespace
}  // namespace proflow::symbolize
