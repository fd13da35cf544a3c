// Replays a fuzz target's corpus (seeds and kept crash inputs) in the normal test suite, so a decoder
// change that brings a found crash back fails here without clang or libFuzzer.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

std::vector<std::filesystem::path> corpusFiles() {
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(FUZZ_CORPUS_DIR))
    if (e.is_regular_file()) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

TEST(FuzzCorpusReplay, EveryInputRunsWithoutBreakingAnInvariant) {
  const auto files = corpusFiles();
  ASSERT_FALSE(files.empty()) << "no corpus in " << FUZZ_CORPUS_DIR;
  for (const auto& f : files) {
    SCOPED_TRACE(f.filename().string());
    std::ifstream in(f, std::ios::binary);
    std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    // Invariant failures abort inside the target: the test then fails with the input's name on stderr.
    std::fprintf(stderr, "replay %s (%zu bytes)\n", f.filename().c_str(), bytes.size());
    EXPECT_EQ(LLVMFuzzerTestOneInput(bytes.data(), bytes.size()), 0);
  }
}

}  // namespace
