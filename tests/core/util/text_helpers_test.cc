// The text helpers of core/util, one of each job: hex (every byte round-trips, either case decodes,
// anything that is not two digits a byte is refused), percent-encoding ('+' as the caller says,
// malformed escapes refused) and ASCII trim, case-insensitive compare and lowercase (ASCII only,
// whatever the locale).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "core/util/ascii.h"
#include "core/util/hex.h"
#include "core/util/percent_encoding.h"

namespace proflow {
namespace {

std::string allBytes() {
  std::string s;
  for (int i = 0; i < 256; ++i) s += static_cast<char>(i);
  return s;
}

TEST(Hex, EncodesLowercaseTwoDigitsPerByte) {
  EXPECT_EQ(hexEncode(std::string_view("\x00\x0f\xa0\xff", 4)), "000fa0ff");
  EXPECT_EQ(hexEncode(std::string_view()), "");
  const uint8_t raw[] = {0xde, 0xad, 0xbe, 0xef};
  EXPECT_EQ(hexEncode(std::span<const uint8_t>(raw)), "deadbeef");
  std::string out = "id=";
  appendHex(out, "\x01\xab");
  EXPECT_EQ(out, "id=01ab");
}

TEST(Hex, EveryByteRoundTrips) {
  const std::string bytes = allBytes();
  const std::string text = hexEncode(bytes);
  ASSERT_EQ(text.size(), 512u);
  EXPECT_EQ(text.substr(0, 8), "00010203");
  EXPECT_EQ(text.substr(504), "fcfdfeff");
  EXPECT_EQ(hexDecode(text), bytes);
}

TEST(Hex, DecodesEitherCase) {
  EXPECT_EQ(hexDecode("DeadBEEF"), std::string("\xde\xad\xbe\xef"));
  EXPECT_EQ(hexDecode(""), std::string());
}

TEST(Hex, RefusesOddLengthAndNonDigits) {
  for (const char* bad : {"abc", "0g", "0x12", " 12"}) EXPECT_EQ(hexDecode(bad), std::nullopt) << bad;
}

TEST(Hex, DigitValues) {
  for (int c = 0; c < 256; ++c) {
    const char ch = static_cast<char>(c);
    int expected = -1;
    if (c >= '0' && c <= '9') expected = c - '0';
    if (c >= 'a' && c <= 'f') expected = c - 'a' + 10;
    if (c >= 'A' && c <= 'F') expected = c - 'A' + 10;
    EXPECT_EQ(hexDigitValue(ch), expected) << "character " << c;
    EXPECT_EQ(isHexDigit(ch), expected >= 0);
  }
  for (unsigned v = 0; v < 16; ++v) EXPECT_EQ(hexDigitValue(hexDigitChar(v)), static_cast<int>(v));
}

TEST(Hex, LowercaseNormalizesOrRefuses) {
  EXPECT_EQ(hexLowercase("ABCdef0123"), "abcdef0123");
  EXPECT_EQ(hexLowercase("abc"), "abc");  // any length: build ids are compared as text
  EXPECT_EQ(hexLowercase("abz"), std::nullopt);
}

TEST(PercentEncoding, DecodesEscapesOfEitherCase) {
  EXPECT_EQ(percentDecode("a%2Cb%3Dc%20d"), "a,b=c d");
  EXPECT_EQ(percentDecode("caf%C3%A9"), "caf\xC3\xA9");
  EXPECT_EQ(percentDecode("%2c"), ",");
  EXPECT_EQ(percentDecode("%41"), "A");  // an escape that ends the text
  EXPECT_EQ(percentDecode(""), "");
}

TEST(PercentEncoding, PlusIsLiteralUnlessFormEncoded) {
  EXPECT_EQ(percentDecode("a+b%2B"), "a+b+");
  EXPECT_EQ(percentDecode("a+b%2B", PlusSign::kSpace), "a b+");
}

TEST(PercentEncoding, RefusesMalformedEscapes) {
  for (const char* bad : {"100%", "%zz", "%4", "%4g"}) EXPECT_EQ(percentDecode(bad), std::nullopt) << bad;
}

TEST(PercentEncoding, EncodesAllButUnreservedAndRoundTrips) {
  EXPECT_EQ(percentEncode("app{env=prod, x}"), "app%7Benv%3Dprod%2C%20x%7D");
  EXPECT_EQ(percentEncode("AZaz09-._~"), "AZaz09-._~");
  std::string all;
  for (int i = 0; i < 256; ++i) all += static_cast<char>(i);
  EXPECT_EQ(percentDecode(percentEncode(all)), all);
}

TEST(Ascii, TrimRemovesAsciiWhitespaceAtBothEnds) {
  EXPECT_EQ(trim("  a b \t"), "a b");
  EXPECT_EQ(trim("\r\n\f\vx\r\n"), "x");
  EXPECT_EQ(trim(" \t "), "");
  EXPECT_EQ(trim(""), "");
  EXPECT_EQ(trim("\xc2\xa0x"), "\xc2\xa0x");  // U+00A0 is not ASCII whitespace
}

TEST(Ascii, IequalsIgnoresOnlyTheCaseOfLetters) {
  EXPECT_TRUE(iequals("Content-Type", "content-TYPE"));
  EXPECT_FALSE(iequals("content-type", "content-typ"));
  EXPECT_FALSE(iequals("a", "b"));
  EXPECT_FALSE(iequals("@", "`"));   // 0x40 and 0x60 differ by the case bit but are not letters
  EXPECT_FALSE(iequals("[", "{"));
  EXPECT_FALSE(iequals("\xc3\x89", "\xc3\xa9"));  // É and é: not ASCII
  EXPECT_TRUE(istartsWith("Basic abc", "basic "));
  EXPECT_FALSE(istartsWith("Bas", "basic"));
}

TEST(Ascii, LowercasesAsciiLettersOnly) {
  EXPECT_EQ(toLowerAscii("MiB-Ki_Z@["), "mib-ki_z@[");
  EXPECT_EQ(toLowerAscii("\xc3\x89"), "\xc3\x89");
}

}  // namespace
}  // namespace proflow
