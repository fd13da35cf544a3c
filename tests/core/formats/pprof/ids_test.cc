#include <gtest/gtest.h>

#include "core/formats/pprof/pprof_ids.h"
#include "core/util/utf8.h"

namespace proflow::pprof {
namespace {

std::string bytes(std::initializer_list<int> b) {
  std::string s;
  for (int v : b) s.push_back(static_cast<char>(v));
  return s;
}

TEST(SpanId, HexForms) {
  EXPECT_EQ(parseSpanId("00f067aa0ba902b7"), bytes({0x00, 0xf0, 0x67, 0xaa, 0x0b, 0xa9, 0x02, 0xb7}));
  EXPECT_EQ(parseSpanId("00F067AA0BA902B7"), bytes({0x00, 0xf0, 0x67, 0xaa, 0x0b, 0xa9, 0x02, 0xb7}));
  EXPECT_EQ(parseSpanId("0xabc"), bytes({0, 0, 0, 0, 0, 0, 0x0a, 0xbc}));
  EXPECT_EQ(parseSpanId("abc"), bytes({0, 0, 0, 0, 0, 0, 0x0a, 0xbc}));
  // 16 digits without a-f: the OTel full-width hex spelling, not decimal.
  EXPECT_EQ(parseSpanId("0000000000000100"), bytes({0, 0, 0, 0, 0, 0, 0x01, 0x00}));
}

TEST(SpanId, DecimalForms) {
  // Datadog: uint64 in decimal.
  EXPECT_EQ(parseSpanId("256"), bytes({0, 0, 0, 0, 0, 0, 0x01, 0x00}));
  EXPECT_EQ(parseSpanId("18446744073709551615"), std::string(8, '\xff'));
  EXPECT_EQ(parseSpanId("18446744073709551616"), std::nullopt);  // overflows 64 bits
  EXPECT_EQ(spanIdFromNumber(256), bytes({0, 0, 0, 0, 0, 0, 0x01, 0x00}));
  EXPECT_EQ(spanIdFromNumber(-1), std::string(8, '\xff'));  // numeric labels carry the uint64 bit pattern
}

TEST(SpanId, Rejects) {
  EXPECT_EQ(parseSpanId(""), std::nullopt);
  EXPECT_EQ(parseSpanId("0"), std::nullopt);  // zero is "no span"
  EXPECT_EQ(parseSpanId("0000000000000000"), std::nullopt);
  EXPECT_EQ(parseSpanId("not-an-id"), std::nullopt);
  EXPECT_EQ(parseSpanId("123456789abcdef01"), std::nullopt);  // 17 hex digits
  EXPECT_EQ(spanIdFromNumber(0), std::nullopt);
}

TEST(TraceId, Forms) {
  auto t = parseTraceId("4bf92f3577b34da6a3ce929d0e0e4736");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->size(), 16u);
  EXPECT_EQ(static_cast<unsigned char>((*t)[0]), 0x4b);
  EXPECT_EQ(static_cast<unsigned char>((*t)[15]), 0x36);
  // 64-bit decimal (Datadog) lands in the low 8 bytes.
  EXPECT_EQ(parseTraceId("256"), std::string(14, '\0') + bytes({0x01, 0x00}));
  // 128-bit decimal: 2^64 = 1 followed by eight zero bytes.
  EXPECT_EQ(parseTraceId("18446744073709551616"), std::string(7, '\0') + bytes({1}) + std::string(8, '\0'));
  EXPECT_EQ(traceIdFromNumber(5), std::string(15, '\0') + bytes({5}));
  // The largest 19-digit decimal (no overflow check needed) and the 128-bit edges.
  EXPECT_EQ(parseSpanId("9999999999999999999"), bytes({0x8a, 0xc7, 0x23, 0x04, 0x89, 0xe7, 0xff, 0xff}));
  EXPECT_EQ(parseTraceId("340282366920938463463374607431768211455"), std::string(16, '\xff'));
  EXPECT_EQ(parseTraceId("340282366920938463463374607431768211456"), std::nullopt);
  EXPECT_EQ(parseTraceId("xyz"), std::nullopt);
}

TEST(LinkRole, KnownLabelKeys) {
  EXPECT_EQ(linkRoleOf("span_id"), LinkRole::kSpan);
  EXPECT_EQ(linkRoleOf("span id"), LinkRole::kSpan);
  EXPECT_EQ(linkRoleOf("profile_id"), LinkRole::kSpan);
  EXPECT_EQ(linkRoleOf("local root span id"), LinkRole::kRootSpan);
  EXPECT_EQ(linkRoleOf("trace_id"), LinkRole::kTrace);
  EXPECT_EQ(linkRoleOf("trace endpoint"), LinkRole::kNone);  // a name, kept as an attribute only
  EXPECT_EQ(linkRoleOf("thread id"), LinkRole::kNone);
}

TEST(LinkRole, SpanPriority) {
  EXPECT_LT(spanKeyPriority("span_id"), spanKeyPriority("span id"));
  EXPECT_LT(spanKeyPriority("span id"), spanKeyPriority("profile_id"));
}

TEST(Utf8, ValidityAndSanitizing) {
  EXPECT_TRUE(isValidUtf8("plain"));
  EXPECT_TRUE(isValidUtf8("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"));
  EXPECT_FALSE(isValidUtf8("caf\xe9"));
  EXPECT_FALSE(isValidUtf8("\xc0\xaf"));          // overlong
  EXPECT_FALSE(isValidUtf8("\xed\xa0\x80"));      // surrogate
  EXPECT_FALSE(isValidUtf8("\xe2\x82"));           // truncated
  EXPECT_EQ(sanitizeUtf8("a\xff" "b"), "a\xef\xbf\xbd" "b");
  EXPECT_EQ(sanitizeUtf8("\xc3\xa9"), "\xc3\xa9");
  EXPECT_EQ(toHex(std::string("\x00\xab", 2)), "00ab");
}

TEST(BuildId, Classification) {
  EXPECT_EQ(classifyBuildId(""), BuildIdKind::kNone);
  EXPECT_EQ(classifyBuildId("7e9a1c2f33c4b1d0e2a6f9b8c7d6e5f4a3b2c1d0"), BuildIdKind::kGnu);
  EXPECT_EQ(classifyBuildId("ABCDEF01"), BuildIdKind::kGnu);
  EXPECT_EQ(classifyBuildId("abc"), BuildIdKind::kOther);  // odd length: not a byte string
  EXPECT_EQ(classifyBuildId("Xq1f-h_9vM/aBcD3fGh/iJkL5mNo/pQrS7tUv"), BuildIdKind::kGo);
  EXPECT_EQ(classifyBuildId("not hex"), BuildIdKind::kOther);
  EXPECT_EQ(buildIdAttribute(BuildIdKind::kGnu), "process.executable.build_id.gnu");
  EXPECT_EQ(buildIdAttribute(BuildIdKind::kGo), "process.executable.build_id.go");
  EXPECT_EQ(buildIdAttribute(BuildIdKind::kNone), "");
}

}  // namespace
}  // namespace proflow::pprof
