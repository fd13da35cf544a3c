// Real recordings of other producers (testdata/wild: async-profiler, pyroscope-java, dd-trace-java;
// provenance in testdata/wild/README.md), and how a test tells a per-run generated name, independently
// of the converter's own rules.
#pragma once

#include <cctype>
#include <string>
#include <string_view>

namespace proflow::testing {

// Path of testdata/wild/<name>.jfr.gz (gzip-compressed as published).
inline std::string wildRecording(std::string_view name) {
  return std::string(PROFLOW_SOURCE_DIR) + "/tests/core/formats/jfr/testdata/wild/" + std::string(name) + ".jfr.gz";
}

// A function name holding a number, address or hash that only one JVM run gave it: $Proxy12,
// jdk.proxy3, GeneratedMethodAccessor7, Foo$$Lambda$75, Foo$$Lambda/0x…, Foo$$Lambda.0x…, JDK 8's
// Foo$$Lambda$28/400136488, CGLIB's $$<hex> and ByteBuddy's $ByteBuddy$<token>.
inline bool hasPerRunPart(std::string_view f) {
  auto digitAfter = [&f](std::string_view marker) {
    for (size_t at = f.find(marker); at != std::string_view::npos; at = f.find(marker, at + 1))
      if (at + marker.size() < f.size() && std::isdigit(static_cast<unsigned char>(f[at + marker.size()]))) return true;
    return false;
  };
  for (std::string_view marker : {"$Proxy", "jdk.proxy", "MethodAccessor", "ConstructorAccessor", "$$Lambda$",
                                  "$$Lambda/", "$$Lambda.", "CGLIB$$", "$ByteBuddy$"})
    if (digitAfter(marker)) return true;
  return f.find("CGLIB$$") != std::string_view::npos || f.find("$ByteBuddy$") != std::string_view::npos ||
         f.find("/0x") != std::string_view::npos || f.find(".0x") != std::string_view::npos;
}

}  // namespace proflow::testing
