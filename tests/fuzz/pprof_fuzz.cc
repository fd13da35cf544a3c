// pprof as the receivers take it: gzip, zstd or raw protobuf (told apart by magic bytes), decompressed
// within the default limits. Both decoders run: the wire view the push receivers use (pprofBytesToOtlp)
// and the protobuf messages the scraper and Pyroscope use (decodeProfile + pprofToOtlp). Both must
// accept the same bytes and build the same OTLP request, and it must pass the receivers'
// validation and convert back to pprof.
#include <string_view>

#include "core/formats/pprof/pprof_codec.h"
#include "tests/support/pprof_request.h"
#include "tests/fuzz/fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace proflow;
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  otlp::Request from_view;
  const bool view_ok = pprof::pprofBytesToOtlp(bytes, {}, &from_view).isOk();

  pprof::Profile profile;
  otlp::Request from_messages;
  bool messages_ok = pprof::decodeProfile(bytes, &profile).isOk();
  if (messages_ok) {
    FUZZ_CHECK(pprof::validateProfile(profile).isOk(), "decodeProfile returned an invalid profile");
    messages_ok = pprof::pprofToOtlp(profile, {}, &from_messages).isOk();
  }
  FUZZ_CHECK(view_ok == messages_ok, view_ok ? "the protobuf messages refused what the wire view accepts"
                                             : "the wire view refused what the protobuf messages accept");
  if (view_ok && messages_ok)
    FUZZ_CHECK(from_view.SerializeAsString() == from_messages.SerializeAsString(),
               "the wire view and the protobuf messages convert differently");
  if (view_ok) fuzz::checkConvertedRequest(from_view, "pprof");
  return 0;
}
