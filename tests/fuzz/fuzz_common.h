// Shared by the fuzz targets: invariant checks that abort (libFuzzer reports the input as a crash, the
// corpus replay test fails), a cursor that splits one fuzz input into options and payload, and the
// checks every decoded OTLP request goes through (what the pipeline does with it next).
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "core/model/otlp_types.h"

#define FUZZ_CHECK(cond, detail)                                                          \
  do {                                                                                    \
    if (!(cond)) {                                                                        \
      std::fprintf(stderr, "fuzz invariant broken: %s (%s)\n", #cond, std::string(detail).c_str()); \
      std::abort();                                                                       \
    }                                                                                     \
  } while (0)

namespace proflow::fuzz {

// Takes option bytes off the front of the input; the rest is the payload.
class FuzzInput {
 public:
  FuzzInput(const uint8_t* data, size_t size) : p_(reinterpret_cast<const char*>(data)), n_(size) {}
  uint8_t byte() {
    if (n_ == 0) return 0;
    --n_;
    return static_cast<uint8_t>(*p_++);
  }
  // Up to the next '\n' (consumed), or everything left.
  std::string_view line() {
    std::string_view rest(p_, n_);
    size_t nl = rest.find('\n');
    std::string_view l = rest.substr(0, nl);
    size_t used = nl == std::string_view::npos ? n_ : nl + 1;
    p_ += used;
    n_ -= used;
    return l;
  }
  std::string_view rest() const { return {p_, n_}; }

 private:
  const char* p_;
  size_t n_;
};

// A request a converter produced must pass the receivers' own validation unchanged (a converter bug
// otherwise turns into refused or partially dropped data), and must convert back to pprof as the
// exporters do.
void checkConvertedRequest(otlp::Request& request, std::string_view source);

// A request from the network: validation prunes what is invalid; whatever is left must convert to
// pprof without a crash (an error is fine).
void exerciseReceivedRequest(otlp::Request& request);

}  // namespace proflow::fuzz
