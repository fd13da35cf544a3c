// `proflow convert`: the pipeline's codecs and symbolizer, offline on files.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <set>

#include "cmd/proflow/commands.h"
#include "core/compression/compression.h"
#include "core/flat/flat_decode.h"
#include "core/flat/flat_encode.h"
#include "core/formats/folded/folded.h"
#include "core/formats/jfr/folded.h"
#include "core/formats/jfr/flat_converter.h"
#include "core/formats/otlp_json/otlp_json.h"
#include "core/formats/perf/kernel_symbols.h"
#include "core/formats/perf/perf.h"
#include "core/formats/pprof/flat_to_pprof.h"
#include "core/formats/pprof/pprof_codec.h"
#include "core/formats/pprof/pprof_to_flat.h"
#include "processors/symbolize/config.h"
#include "processors/symbolize/otlp_symbolizer.h"
#include "processors/symbolize/symbolizer.h"

namespace proflow {
namespace {

std::string option(const CliArgs& args, const std::string& name, const std::string& fallback = "") {
  for (const auto& [k, v] : args.options)
    if (k == name) return v;
  return fallback;
}

bool hasFlag(const CliArgs& args, std::string_view flag) {
  return std::find(args.flags.begin(), args.flags.end(), flag) != args.flags.end();
}

std::vector<std::string> options(const CliArgs& args, const std::string& name) {
  std::vector<std::string> out;
  for (const auto& [k, v] : args.options)
    if (k == name) out.push_back(v);
  return out;
}

// The input's bytes. A large regular file is mapped: reading it would copy it into as much fresh
// heap, which the kernel zeroes first, while the mapping shares the page cache's pages (a file
// truncated by another process during the conversion then ends it with SIGBUS, as it would any
// tool that maps its input). Smaller files are read in one read of their size; pipes
// (`/dev/stdin`) in chunks.
class InputFile {
 public:
  InputFile() = default;
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;
  ~InputFile() {
    if (map_ != nullptr) munmap(map_, size_);
  }

  bool open(const std::string& path) {
    static constexpr off_t kMapFrom = 4 << 20;
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    struct stat st {};
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= kMapFrom) {
      void* map = mmap(nullptr, static_cast<size_t>(st.st_size), PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
      if (map != MAP_FAILED) {
        map_ = map;
        size_ = static_cast<size_t>(st.st_size);
      }
    }
    const bool ok = map_ != nullptr || readFd(fd, S_ISREG(st.st_mode) ? static_cast<size_t>(st.st_size) : 0);
    ::close(fd);
    return ok;
  }
  std::string_view bytes() const {
    return map_ != nullptr ? std::string_view(static_cast<const char*>(map_), size_) : std::string_view(data_);
  }

 private:
  // `size_hint` bytes in place, then whatever else arrives (a growing file, a pipe).
  bool readFd(int fd, size_t size_hint) {
    data_.resize(size_hint);
    size_t n = 0;
    char chunk[64 << 10];
    while (true) {
      const bool room = n < data_.size();
      const ssize_t r = room ? ::read(fd, data_.data() + n, data_.size() - n) : ::read(fd, chunk, sizeof chunk);
      if (r < 0 && errno == EINTR) continue;
      if (r < 0) return false;
      if (r == 0) break;
      if (!room) data_.append(chunk, static_cast<size_t>(r));
      n += static_cast<size_t>(r);
    }
    data_.resize(n);
    return true;
  }

  std::string data_;
  void* map_ = nullptr;
  size_t size_ = 0;
};

bool writeAll(const std::string& path, const std::string& data) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(data.data(), static_cast<std::streamsize>(data.size()));
  return static_cast<bool>(f);
}

// Text whose first line ends in " <count>" (and no NUL byte early on) is folded stacks.
bool looksFolded(std::string_view data) {
  const std::string head(data.substr(0, 4096));
  if (head.find('\0') != std::string::npos) return false;
  const size_t start = head.find_first_not_of(" \t\r\n");
  if (start == std::string::npos) return false;
  std::string line = head.substr(start, head.find('\n', start) - start);
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
  const size_t space = line.find_last_of(" \t");
  return space != std::string::npos && space + 1 < line.size() &&
         line.find_first_not_of("0123456789", space + 1) == std::string::npos;
}

std::string detectFormat(std::string_view data) {
  if (data.substr(0, 4) == std::string_view("FLR\0", 4)) return "jfr";
  if (std::string_view form = perf::detect(data); !form.empty()) return std::string(form);
  size_t i = data.find_first_not_of(" \t\r\n");
  if (i != std::string::npos && data[i] == '{') return "otlp_json";
  if (looksFolded(data)) return "folded";
  return "pprof_or_otlp_proto";
}

Status readJfr(std::string_view data, const CliArgs& args, flat::Batch* batch) {
  auto bytes = std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(data.data()), data.size());
  jfr::ConvertOptions options;
  options.merge_generated_names = !hasFlag(args, "--keep-generated-names");
  jfr::ConvertResult r = jfr::convertToFlat(bytes, options, batch);
  if (!r.ok) {
    std::fprintf(stderr, "proflow convert: JFR input is damaged (%s); kept the %llu events of complete chunks\n",
                 r.error.message.c_str(), static_cast<unsigned long long>(r.events));
    if (r.events == 0) return Status::invalid("no events could be read from the JFR input");
  }
  return Status::ok();
}

// OTLP protobuf as sent (gzip/zstd or raw), decoded without the receivers' validation: the file is
// converted as it is (a conversion that meets a dangling index says so).
Status readOtlpProto(std::string_view data, flat::Batch* batch) {
  std::string raw;
  if (Status s = compression::decompressAuto(data, raw, {}); !s.isOk()) return s;
  flat::DecodeOptions options;
  options.validate = false;
  options.max_entries = SIZE_MAX;
  if (!flat::decode(raw, batch, options).request.isOk()) return Status::invalid("input is not an OTLP profiles protobuf");
  return Status::ok();
}

// perf.data / perf script: sample times without a clock anchor in the recording end at the file's
// modification time (when perf record wrote it).
Status readPerf(std::string_view data, const std::string& format, const std::string& path, flat::Batch* batch) {
  perf::Options options;
  struct stat st {};
  if (stat(path.c_str(), &st) == 0)
    options.end_time_unix_nano =
        static_cast<uint64_t>(st.st_mtim.tv_sec) * 1'000'000'000ull + static_cast<uint64_t>(st.st_mtim.tv_nsec);
  perf::Result r;
  Status s = format == "perf" ? perf::perfDataToFlat(data, options, batch, &r)
                              : perf::perfScriptToFlat(data, options, batch, &r);
  if (s.isOk() && r.lost > 0)
    std::fprintf(stderr, "proflow convert: the recording reports %llu lost samples\n",
                 static_cast<unsigned long long>(r.lost));
  return s;
}

// Options that only mean something with another one are refused without it, not ignored.
Status checkConvertOptions(const CliArgs& args) {
  static const std::set<std::string> kInputs = {"pprof", "jfr", "otlp_json", "otlp_proto", "folded", "perf", "perf-script"};
  if (const std::string from = option(args, "--from"); !from.empty() && !kInputs.count(from))
    return Status::invalid("unknown input format '" + from +
                           "' (--from); valid: folded, jfr, otlp_json, otlp_proto, perf, perf-script, pprof");
  if (!option(args, "--sample-type").empty() && option(args, "--to") != "folded")
    return Status::invalid("--sample-type picks the sample type written as folded stacks: it needs --to folded");
  for (const char* o : {"--debug-dir", "--binary-dir", "--debuginfod"})
    if (!options(args, o).empty() && !hasFlag(args, "--symbolize"))
      return Status::invalid(std::string(o) + " tells --symbolize where to look: it needs --symbolize");
  return Status::ok();
}

Status readInput(std::string_view data, const CliArgs& args, const std::string& path, flat::Batch* batch) {
  std::string format = option(args, "--from");
  if (format.empty()) format = detectFormat(data);
  if (format == "jfr") return readJfr(data, args, batch);
  if (format == "perf" || format == "perf-script") return readPerf(data, format, path, batch);
  if (format == "otlp_json") return otlp_json::decode(data, batch).status;
  if (format == "folded")  // counts as they are: sample type "samples", unit "count"
    return folded::foldedToFlat(data, {}, {}, 0, {}, batch);
  if (format == "otlp_proto") return readOtlpProto(data, batch);
  if (format == "pprof") return pprof::pprofBytesToFlat(data, {}, batch);
  // Undecided binary input: pprof first (its validation rejects other protobufs), then OTLP.
  Status as_pprof = pprof::pprofBytesToFlat(data, {}, batch);
  if (as_pprof.isOk()) return as_pprof;
  batch->clear();
  if (readOtlpProto(data, batch).isOk()) return Status::ok();
  return Status::invalid("input is neither pprof (" + as_pprof.message() + ") nor JFR, OTLP JSON or OTLP protobuf");
}

Status symbolizeInPlace(const CliArgs& args, flat::Batch* batch) {
  symbolize::SymbolizerOptions opts;
  opts.debug_dirs = options(args, "--debug-dir");
  opts.binary_dirs = options(args, "--binary-dir");
  opts.debuginfod.urls = options(args, "--debuginfod");
  opts.trust_mapping_paths = true;  // offline: the mapping's own file is on this machine
  symbolize::Symbolizer symbolizer(opts);
  auto counts = symbolize::symbolizeBatch(symbolizer, *batch, symbolize::AddressMode::kAuto);
  std::fprintf(stderr, "symbolized %llu locations, %llu not found, %llu errors\n",
               static_cast<unsigned long long>(counts.symbolized), static_cast<unsigned long long>(counts.not_found),
               static_cast<unsigned long long>(counts.errors));
  // perf recordings: kernel frames from this machine's kallsyms when it runs the recorded kernel.
  if (uint64_t n = perf::nameKernelFramesFromRunningKernel(batch))
    std::fprintf(stderr, "named %llu kernel frames from /proc/kallsyms\n", static_cast<unsigned long long>(n));
  return Status::ok();
}

Status writeFile(const std::string& path, const std::string& data) {
  return writeAll(path, data) ? Status::ok() : Status::internal("cannot write " + path);
}

Status writeOutput(const flat::Batch& batch, const std::string& to, const std::string& sample_type,
                   const std::string& out_path) {
  if (to == "otlp_json") return writeFile(out_path, otlp_json::encode(batch) + "\n");
  if (to == "otlp_proto") return writeFile(out_path, flat::encode(batch));
  if (to == "folded") {
    std::string type = sample_type;
    for (size_t i = 0; type.empty() && i < batch.profiles.size(); ++i)
      type = batch.string(batch.profiles[i].sample_type.type_strindex);
    jfr::FoldOptions fo;
    fo.sample_type = type;
    return writeFile(out_path, jfr::formatFolded(jfr::foldStacks(batch, fo)));
  }
  if (to == "pprof") {
    std::vector<pprof::EncodedPprof> out;
    if (Status s = pprof::flatToPprofBytes(batch, &out); !s.isOk()) return s;
    if (out.empty()) return Status::invalid("the input holds no profile");
    for (size_t i = 0; i < out.size(); ++i) {
      std::string path = i == 0 ? out_path : out_path + "." + std::to_string(i);
      if (Status s = writeFile(path, out[i].data); !s.isOk()) return s;
      if (out.size() > 1) std::fprintf(stderr, "wrote %s\n", path.c_str());
    }
    return Status::ok();
  }
  return Status::invalid("unknown output format '" + to + "'; valid: folded, otlp_json, otlp_proto, pprof");
}

}  // namespace

// A large profile makes the conversion touch a few hundred MB of fresh heap once; faulted in 4 KiB
// at a time that was about half of `proflow convert`'s CPU time (perf: page faults under the
// copies). glibc's huge-page heap faults it in 2 MiB at a time, small buffers too. Small inputs do
// not pay a second start-up for it. The daemon cannot set the tunable for itself: its allocator
// policy advises only its buffers of 4 MiB or more (core/runtime/allocator_tuning.h).
void execConvertWithHugePageHeap(char** argv, const std::string& input) {
  if (std::getenv("GLIBC_TUNABLES") != nullptr) return;  // the caller's choice, or already re-executed
  struct stat st {};
  if (stat(input.c_str(), &st) != 0 || st.st_size < (4 << 20)) return;
  if (setenv("GLIBC_TUNABLES", "glibc.malloc.hugetlb=1", 1) != 0) return;
  execv("/proc/self/exe", argv);
  unsetenv("GLIBC_TUNABLES");  // exec failed: convert with the default heap
}

int commandConvert(const CliArgs& args) {
  if (args.positional.size() != 2) {
    std::fprintf(stderr, "usage: proflow convert IN OUT [--to FORMAT] [--from FORMAT] [--sample-type T] [--symbolize ...]"
                         " (proflow --help tells more)\n");
    return 2;
  }
  if (Status s = checkConvertOptions(args); !s.isOk()) {
    std::fprintf(stderr, "proflow convert: %s\n", s.message().c_str());
    return 2;
  }
  InputFile input;
  if (!input.open(args.positional[0])) {
    std::fprintf(stderr, "proflow convert: cannot read %s\n", args.positional[0].c_str());
    return 1;
  }
  flat::Batch batch;
  Status s = readInput(input.bytes(), args, args.positional[0], &batch);
  if (s.isOk() && hasFlag(args, "--symbolize"))
    s = symbolizeInPlace(args, &batch);
  if (s.isOk()) s = writeOutput(batch, option(args, "--to", "pprof"), option(args, "--sample-type"), args.positional[1]);
  if (!s.isOk()) {
    std::fprintf(stderr, "proflow convert: %s\n", s.message().c_str());
    return 1;
  }
  return 0;
}

}  // namespace proflow
