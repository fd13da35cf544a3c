// The persistent queue's load path on a file left in its directory (what a restart reads back after a
// crash, a power loss or a disk that flips bits): PersistentStore::open + load on a scratch directory.
//
// Input: byte 0 chooses how the rest becomes the file, byte 1-2 (mode 2) a bit to flip.
//   0: the rest is the whole .batch file (header, checksum and payload as the fuzzer wrote them)
//   1: the rest is a payload (metadata block + OTLP request), written with a correct header: it
//      reaches the metadata parser and the decoder past the checksum
//   2: as 1, then one bit of the file flipped: the load must refuse it (CRC-32C finds every 1-bit error)
//   3: the rest is a bare request in the format earlier versions wrote (.otlp, no header)
// Invariants: load never crashes; it answers ok or kInvalidArgument (the file then lies under *.corrupt and
// not under its own name); a load that succeeds gives a batch that passes a receiver's validation
// unchanged and encodes again; a flipped record is never delivered.
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "core/exporterhelper/persistent_store.h"
#include "core/exporterhelper/queue_record.h"
#include "core/flat/flat_decode.h"
#include "core/flat/flat_encode.h"
#include "tests/fuzz/fuzz_common.h"

namespace fs = std::filesystem;
using namespace proflow;
using namespace proflow::exporterhelper;

namespace {

const fs::path& scratchDirectory() {
  static const fs::path dir = [] {
    std::string tmpl = (fs::temp_directory_path() / "proflow-queue-fuzz-XXXXXX").string();
    if (!mkdtemp(tmpl.data())) std::abort();
    std::atexit([] {
      std::error_code ec;
      fs::remove_all(scratchDirectory(), ec);
    });
    return fs::path(tmpl);
  }();
  return dir;
}

void writeFile(const fs::path& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::FuzzInput in(data, size);
  const uint8_t mode = in.byte() % 4;
  const uint8_t flip_high = in.byte();
  const uint16_t flip = static_cast<uint16_t>(flip_high << 8 | in.byte());
  const std::string_view rest = in.rest();

  const fs::path queue = scratchDirectory() / "queue";
  std::error_code ec;
  fs::remove_all(queue, ec);
  fs::create_directories(queue);

  std::string file;
  bool flipped = false;
  if (mode == 0 || mode == 3) {
    file = rest;
  } else {
    file = recordHeader(rest);
    file += rest;
    if (mode == 2) {
      const size_t bit = flip % (file.size() * 8);
      file[bit / 8] = static_cast<char>(file[bit / 8] ^ (1u << (bit % 8)));
      flipped = true;
    }
  }
  const std::string name = mode == 3 ? "00000000000000000001.otlp" : "00000000000000000001.batch";
  writeFile(queue / name, file);

  PersistentStore store(queue.string(), /*fsync=*/false);
  std::vector<uint64_t> leftover;
  FUZZ_CHECK(store.open(&leftover).isOk(), "open of a scratch queue");
  FUZZ_CHECK(leftover.size() == 1 && leftover[0] == 1, "the file is listed");

  Batch batch;
  const Status s = store.load(1, &batch);
  if (!s.isOk()) {
    FUZZ_CHECK(s.code() == StatusCode::kInvalidArgument, s.message());
    FUZZ_CHECK(!fs::exists(queue / name) && fs::exists(queue / (name + ".corrupt")), "a refused file is moved aside");
    return 0;
  }
  FUZZ_CHECK(!flipped, "a record with a flipped bit was delivered");
  FUZZ_CHECK(mode != 0 || file.size() >= kRecordHeaderBytes, "a file shorter than the header was delivered");
  // What the queue hands an exporter is what a receiver would have accepted: it encodes, and the
  // encoding decodes again with nothing refused.
  const std::string encoded = flat::encode(batch.data());
  flat::Batch again;
  const flat::DecodeResult redo = flat::decode(encoded, &again, flat::DecodeOptions{});
  FUZZ_CHECK(redo.request.isOk(), redo.request.message());
  FUZZ_CHECK(redo.rejected_profiles == 0 && redo.profile_errors.empty(), "a delivered batch holds invalid profiles");
  return 0;
}
