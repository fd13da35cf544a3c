#include "core/util/ascii.h"

namespace proflow {

std::string toLowerAscii(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = asciiLower(c);
  return out;
}

}  // namespace proflow
