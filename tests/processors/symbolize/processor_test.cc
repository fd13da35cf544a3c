// The symbolize processor on OTLP requests built from real g++ binaries: every location's lines must
// equal llvm-symbolizer-14's inline chain; covers a debuginfod server on loopback, unknown build ids
// and corrupt ELF files (counted, never dropped), runtime vs ELF addresses and the worker pool.
#include <gtest/gtest.h>
#include <spdlog/spdlog.h>

#include <filesystem>
#include <fstream>
#include <mutex>
#include <set>
#include <tuple>

#include "core/config/component_config.h"
#include "tests/support/dictionary_builder.h"
#include "core/component/factory.h"
#include "core/runtime/runtime.h"
#include "core/telemetry/component_telemetry.h"
#include "processors/symbolize/config.h"
#include "processors/symbolize/factory.h"
#include "tests/processors/symbolize/debuginfod_server.h"
#include "tests/processors/symbolize/test_programs.h"
#include "tests/support/temp_dir.h"
#include "tests/support/flat_request.h"

namespace proflow::symbolize {
namespace {

namespace fs = std::filesystem;
using testing::describe;

class Capture : public ProfilesConsumer {
 public:
  Status consume(Batch batch) override {
    std::lock_guard<std::mutex> lock(mu);
    batches.push_back(std::move(batch));
    return Status::ok();
  }
  std::mutex mu;
  std::vector<Batch> batches;
};

// One binary in a request: its mapping and the addresses of its locations.
struct MappingSpec {
  std::string build_id;
  std::string filename;
  uint64_t start = 0, limit = 0, offset = 0;
  std::vector<uint64_t> addresses;
};

// A request with one profile whose single sample's stack holds every location.
otlp::Request makeRequest(const std::vector<MappingSpec>& specs) {
  otlp::Request req;
  DictionaryBuilder b(req.mutable_dictionary());
  std::vector<int32_t> stack;
  for (const auto& s : specs) {
    otlp::Mapping m;
    m.set_memory_start(s.start);
    m.set_memory_limit(s.limit);
    m.set_file_offset(s.offset);
    m.set_filename_strindex(b.string(s.filename));
    m.add_attribute_indices(b.stringAttribute("process.executable.build_id.gnu", s.build_id));
    const int32_t mi = b.mapping(m);
    for (uint64_t a : s.addresses) {
      otlp::Location l;
      l.set_mapping_index(mi);
      l.set_address(a);
      stack.push_back(b.location(l));
    }
  }
  auto* profile = req.add_resource_profiles()->add_scope_profiles()->add_profiles();
  auto* sample = profile->add_samples();
  sample->set_stack_index(b.stack(stack));
  sample->add_values(1);
  return req;
}

Frames framesOf(const otlp::Dictionary& d, const otlp::Location& loc) {
  Frames out;
  for (const auto& line : loc.lines()) {
    const auto& fn = d.function_table(line.function_index());
    out.push_back({std::string(dictString(d, fn.name_strindex())), std::string(dictString(d, fn.system_name_strindex())),
                   std::string(dictString(d, fn.filename_strindex())), line.line(), line.column()});
  }
  return out;
}

bool sameSource(const Frames& a, const Frames& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].function != b[i].function || a[i].file != b[i].file || a[i].line != b[i].line ||
        a[i].column != b[i].column)
      return false;
  return true;
}

bool mappingFlag(const otlp::Dictionary& d, const otlp::Mapping& m, std::string_view key) {
  for (int32_t idx : m.attribute_indices()) {
    const auto& kv = d.attribute_table(idx);
    if (dictString(d, kv.key_strindex()) == key) return kv.value().bool_value();
  }
  return false;
}

class SymbolizeProcessorTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    for (const char* tool : {"g++", "gcc", "llvm-symbolizer-14", "objcopy", "objdump", "nm", "readelf", "strip",
                             "debuginfod", "curl"})
      if (std::string m = testing::missingTool(tool); !m.empty()) tool_error_ += m + "\n";
    if (!tool_error_.empty()) return;
    dir_ = new proflow::testing::TempDir();
    programs_ = testing::buildPrograms(dir_->path().string());
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }
  void SetUp() override {
    ASSERT_TRUE(tool_error_.empty()) << tool_error_;
    ASSERT_TRUE(programs_.error.empty()) << programs_.error;
  }

  // Builds a processor from `cfg` the way the service does (factory, settings, worker pool).
  std::shared_ptr<Processor> makeProcessor(const SymbolizeConfig& cfg) {
    auto factory = makeSymbolizeProcessorFactory();
    EXPECT_EQ(factory->type(), "symbolize");
    auto* pf = dynamic_cast<ProcessorFactory*>(factory.get());
    config::TypedConfig<SymbolizeConfig> typed(cfg);
    CreateSettings s{ComponentId{"symbolize", ""}, ComponentKind::kProcessor, spdlog::default_logger(), &telemetry_,
                     &runtime_};
    return pf->create(s, typed, capture_);
  }

  double metric(const std::string& suffix) {
    return registry_.value(telemetry_.prefix() + suffix, telemetry_.labels());
  }

  // Runs `req` through a processor and returns what came out downstream.
  otlp::Request process(Processor& p, otlp::Request req) {
    EXPECT_TRUE(p.consume(::proflow::testing::batchOf(std::move(req))).isOk());
    std::lock_guard<std::mutex> lock(capture_->mu);
    return ::proflow::testing::requestOf(capture_->batches.back());
  }

  // Every location of `out` whose mapping is `spec` must carry llvm-symbolizer's frames of `reference`.
  void expectLinesMatchLlvm(const otlp::Request& out, const MappingSpec& spec, const std::string& reference,
                            uint64_t address_offset = 0) {
    std::vector<uint64_t> elf;
    for (uint64_t a : spec.addresses) elf.push_back(a - address_offset);
    const auto expected = testing::llvmFrames(reference, elf);
    ASSERT_EQ(expected.size(), elf.size());
    const auto& d = out.dictionary();
    size_t checked = 0;
    for (const auto& loc : d.location_table()) {
      if (loc.mapping_index() == 0 || dictString(d, d.mapping_table(loc.mapping_index()).filename_strindex()) !=
                                          spec.filename)
        continue;
      auto it = std::find(spec.addresses.begin(), spec.addresses.end(), loc.address());
      ASSERT_NE(it, spec.addresses.end());
      const Frames& want = expected[it - spec.addresses.begin()];
      EXPECT_TRUE(sameSource(framesOf(d, loc), want)) << std::hex << "address 0x" << loc.address() << "\nours:\n"
                                                      << describe(framesOf(d, loc)) << "llvm:\n" << describe(want);
      ++checked;
    }
    EXPECT_EQ(checked, spec.addresses.size());
  }

  telemetry::MetricsRegistry registry_;
  telemetry::ComponentTelemetry telemetry_{registry_, ComponentKind::kProcessor, "symbolize"};
  Runtime runtime_{1, 2};
  std::shared_ptr<Capture> capture_ = std::make_shared<Capture>();

  static inline proflow::testing::TempDir* dir_ = nullptr;
  static inline testing::Programs programs_;
  static inline std::string tool_error_;
};

TEST_F(SymbolizeProcessorTest, EveryLocationMatchesLlvmForElfAndRuntimeAddresses) {
  SymbolizeConfig cfg;
  cfg.debug_dirs = {};
  cfg.paths = {programs_.app, programs_.shlib};
  auto p = makeProcessor(cfg);

  MappingSpec app{testing::buildIdOf(programs_.app), "app", 0, 0, 0, testing::functionAddresses(programs_.app)};
  // The library as a pprof profile sees it: runtime addresses inside its mapped text segment.
  const auto seg = testing::textSegment(programs_.shlib);
  const uint64_t base = 0x7f0012340000;
  MappingSpec lib{testing::buildIdOf(programs_.shlib), "libshape.so", base + (seg.vaddr & ~0xfffULL),
                  base + seg.vaddr + seg.memsz, seg.offset & ~0xfffULL, {}};
  for (uint64_t a : testing::functionAddresses(programs_.shlib)) lib.addresses.push_back(base + a);

  otlp::Request out = process(*p, makeRequest({app, lib}));
  expectLinesMatchLlvm(out, app, programs_.app);
  expectLinesMatchLlvm(out, lib, programs_.shlib, base);

  const auto& d = out.dictionary();
  for (int mi = 1; mi < d.mapping_table_size(); ++mi) {
    EXPECT_TRUE(mappingFlag(d, d.mapping_table(mi), "pprof.mapping.has_functions"));
    EXPECT_TRUE(mappingFlag(d, d.mapping_table(mi), "pprof.mapping.has_line_numbers"));
    EXPECT_TRUE(mappingFlag(d, d.mapping_table(mi), "pprof.mapping.has_inline_frames"));
  }
  // Functions are interned: no two entries alike.
  std::set<std::tuple<int32_t, int32_t, int32_t>> fns;
  for (const auto& f : d.function_table()) fns.insert({f.name_strindex(), f.system_name_strindex(), f.filename_strindex()});
  EXPECT_EQ(fns.size(), static_cast<size_t>(d.function_table_size()));
  const double total = app.addresses.size() + lib.addresses.size();
  EXPECT_EQ(metric("symbolize_locations_symbolized_total"), total);
  EXPECT_EQ(metric("symbolize_locations_not_found_total"), 0);
  EXPECT_EQ(metric("symbolize_cache_misses_total"), 2);
}

TEST_F(SymbolizeProcessorTest, StrippedBinaryWithSymbolsOnlyOnDebuginfod) {
  proflow::testing::TempDir t;
  fs::create_directories(t.path() / "served");
  fs::create_directories(t.path() / "client-cache");
  const std::string id = testing::buildIdOf(programs_.app);
  ASSERT_EQ(testing::run("objcopy --only-keep-debug " + programs_.app + " " + t.file("served/app.debug")).status, 0);
  testing::DebuginfodServer server(t.file("served"), t.path().string());
  ASSERT_TRUE(server.waitFor(id)) << server.log();

  SymbolizeConfig cfg;
  cfg.debug_dirs = {};
  cfg.debuginfod.urls = {server.url()};
  cfg.debuginfod.cache_dir = t.file("client-cache");
  cfg.debuginfod.timeout = std::chrono::seconds(20);
  auto p = makeProcessor(cfg);
  MappingSpec app{id, "app", 0, 0, 0, testing::functionAddresses(programs_.app)};
  otlp::Request out = process(*p, makeRequest({app}));
  expectLinesMatchLlvm(out, app, programs_.app);
  EXPECT_EQ(metric("symbolize_debuginfod_fetches_total"), 1);
  EXPECT_EQ(metric("symbolize_debuginfod_bytes_total"), fs::file_size(t.file("served/app.debug")));
  // A second batch is answered from the cache, without another download.
  process(*p, makeRequest({app}));
  EXPECT_EQ(metric("symbolize_debuginfod_fetches_total"), 1);
  EXPECT_EQ(metric("symbolize_cache_hits_total"), 1);
}

TEST_F(SymbolizeProcessorTest, UnknownBuildIdLeavesLocationsAsTheyWere) {
  SymbolizeConfig cfg;
  cfg.debug_dirs = {};
  cfg.paths = {programs_.app};
  auto p = makeProcessor(cfg);
  MappingSpec ghost{"0123456789abcdef0123456789abcdef01234567", "ghost", 0x400000, 0x500000, 0, {0x401000, 0x401234}};
  MappingSpec bad_id{"../../../etc/passwd", "evil", 0x400000, 0x500000, 0, {0x402000}};
  otlp::Request in = makeRequest({ghost, bad_id});
  otlp::Request out = process(*p, in);
  EXPECT_EQ(out.SerializeAsString(), in.SerializeAsString());
  EXPECT_EQ(metric("symbolize_locations_not_found_total"), 3);
  EXPECT_EQ(metric("symbolize_locations_symbolized_total"), 0);
  process(*p, in);  // remembered as not found
  EXPECT_EQ(metric("symbolize_cache_hits_total"), 1);
  EXPECT_EQ(metric("symbolize_cache_misses_total"), 1);
}

TEST_F(SymbolizeProcessorTest, CorruptElfIsCountedAsErrorAndBatchStillFlows) {
  proflow::testing::TempDir t;
  const std::string id = "feedfacefeedfacefeedfacefeedfacefeedface";
  fs::create_directories(t.path() / ".build-id" / "fe");
  std::ofstream(t.path() / ".build-id" / "fe" / (id.substr(2) + ".debug")) << "\x7f" "ELF\x02\x01\x01 corrupt";
  SymbolizeConfig cfg;
  cfg.debug_dirs = {t.path().string()};
  cfg.paths = {programs_.cprog};
  auto p = makeProcessor(cfg);
  MappingSpec corrupt{id, "corrupt", 0, 0, 0, {0x1000, 0x1010}};
  MappingSpec good{testing::buildIdOf(programs_.cprog), "cprog", 0, 0, 0, testing::functionAddresses(programs_.cprog, 10)};
  otlp::Request out = process(*p, makeRequest({corrupt, good}));
  EXPECT_EQ(metric("symbolize_locations_errors_total"), 2);
  EXPECT_EQ(metric("symbolize_locations_symbolized_total"), 10);
  expectLinesMatchLlvm(out, good, programs_.cprog);
  for (const auto& loc : out.dictionary().location_table()) {
    if (loc.address() == 0x1000 || loc.address() == 0x1010) {
      EXPECT_EQ(loc.lines_size(), 0);
    }
  }
}

TEST_F(SymbolizeProcessorTest, ConfigValidationRejectsBadValues) {
  auto factory = makeSymbolizeProcessorFactory();
  auto cfg = factory->createDefaultConfig();
  config::ConfigErrors ok_errors;
  cfg->validate(ok_errors);
  EXPECT_TRUE(ok_errors.empty()) << ok_errors.format();

  SymbolizeConfig bad;
  bad.order = {"debug_dirs", "symbol_server", "debug_dirs"};
  bad.address_kind = "virtual";
  bad.cache_size_mb = 0;
  bad.debuginfod.urls = {"ftp://x"};
  config::TypedConfig<SymbolizeConfig> typed(bad);
  config::ConfigErrors errors;
  typed.validate(errors);
  const std::string text = errors.format();
  EXPECT_EQ(errors.size(), 5u) << text;
  EXPECT_NE(text.find("symbol_server"), std::string::npos);
  EXPECT_NE(text.find("listed twice"), std::string::npos);
  EXPECT_NE(text.find("address_kind"), std::string::npos);
  EXPECT_NE(text.find("ftp://x"), std::string::npos);
}

}  // namespace
}  // namespace proflow::symbolize
