#include "tests/core/formats/jfr/recordings.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>

namespace proflow::testing {

std::string jfrRecordingsDir() {
  static const std::string dir = [] {
    std::string src = std::string(PROFLOW_SOURCE_DIR) + "/tests/core/formats/jfr/testdata";
    std::string out = std::string(PROFLOW_BINARY_DIR) + "/tests/core/formats/jfr/recordings";
    std::string cmd = "sh '" + src + "/make_recordings.sh' '" + src + "' '" + out + "'";
    int rc = std::system(cmd.c_str());
    if (rc != 0) {
      std::fprintf(stderr, "make_recordings.sh failed (exit %d): the JFR tests need java, javac and jfr\n", rc);
      return std::string();
    }
    return out;
  }();
  return dir;
}

std::vector<uint8_t> readBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

}  // namespace proflow::testing
