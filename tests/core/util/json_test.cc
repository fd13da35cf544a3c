// The bounded JSON reader and the writer: tokens and unescaping, every malformation refused at its
// byte, each bound refused where it is passed (before the work it guards), the document view, and the
// writer's escaping and doubles against protobuf's JSON printer.
#include <google/protobuf/struct.pb.h>
#include <google/protobuf/util/json_util.h>
#include <gtest/gtest.h>

#include <random>

#include "core/util/json/json_document.h"
#include "core/util/json/json_reader.h"
#include "core/util/json/json_writer.h"

namespace proflow::json {
namespace {

// The document's tokens as text: "{ k:a s:b n:1 [ t f z ] }".
std::string tokens(std::string_view text, const Limits& limits = {}) {
  Reader r(text, limits);
  std::string out;
  for (Token t = r.next(); t != Token::kEnd; t = r.next()) {
    if (!out.empty()) out += ' ';
    switch (t) {
      case Token::kBeginObject: out += '{'; break;
      case Token::kEndObject: out += '}'; break;
      case Token::kBeginArray: out += '['; break;
      case Token::kEndArray: out += ']'; break;
      case Token::kKey: out += "k:" + std::string(r.text()); break;
      case Token::kString: out += "s:" + std::string(r.text()); break;
      case Token::kNumber: out += "n:" + std::string(r.text()); break;
      case Token::kTrue: out += 't'; break;
      case Token::kFalse: out += 'f'; break;
      case Token::kNull: out += 'z'; break;
      case Token::kError: return "error: " + r.error().message();
      case Token::kEnd: break;
    }
  }
  return out;
}

std::string nested(size_t depth) { return std::string(depth, '[') + std::string(depth, ']'); }

TEST(JsonReader, TokensOfEveryKind) {
  EXPECT_EQ(tokens(R"( {"a" : [1, -2.5e3, 0, "x\"\\\/\b\f\n\r\t", true, false, null], "b":{}, "c":[]} )"),
            "{ k:a [ n:1 n:-2.5e3 n:0 s:x\"\\/\b\f\n\r\t t f z ] k:b { } k:c [ ] }");
  EXPECT_EQ(tokens(R"("\u00e9\u20ac\ud83d\ude00")"), "s:\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80");
  EXPECT_EQ(tokens("\"caf\xc3\xa9\""), "s:caf\xc3\xa9");
  EXPECT_EQ(tokens("7"), "n:7");
  EXPECT_EQ(tokens("[1e-400,1e308]"), "[ n:1e-400 n:1e308 ]");
}

TEST(JsonReader, MalformedDocumentsAreRefusedAtTheirByte) {
  const std::pair<const char*, const char*> cases[] = {
      {"", "unexpected end of the document at byte 0"},
      {"[1,]", "unexpected character ']', expected a value at byte 3"},
      {"{\"a\":1,}", "expected a string key at byte 7"},
      {"{\"a\" 1}", "expected ':' after an object key at byte 5"},
      {"{a:1}", "expected a string key at byte 1"},
      {"[01]", "invalid number (leading zero) at byte 3"},
      {"[1.]", "invalid number at byte 3"},
      {"[-]", "invalid number at byte 2"},
      {"\"abc", "unterminated string at byte 4"},
      {"\"a\\x\"", "invalid escape in a string at byte 3"},
      {"\"\\ud800\"", "unpaired surrogate in a \\u escape at byte 7"},
      {"\"\\udc00\"", "unpaired surrogate in a \\u escape at byte 7"},
      {"\"a\nb\"", "control character in a string at byte 2"},
      {"\"\xff\"", "string is not valid UTF-8 at byte 2"},
      {"[1] 2", "unexpected data after the JSON value at byte 4"},
      {"[1e400]", "number out of the range of a double at byte 6"},
      {"[-1E+309]", "number out of the range of a double at byte 8"},
      {"[1 2]", "expected ',' or ']' at byte 3"},
      {"{\"a\":1 \"b\":2}", "expected ',' or '}' at byte 7"},
      {"tru", "unexpected character, expected a value at byte 0"},
      {"'a'", "unexpected character ''', expected a value at byte 0"},
  };
  for (const auto& [text, error] : cases) EXPECT_EQ(tokens(text), std::string("error: invalid JSON: ") + error) << text;
}

TEST(JsonReader, DepthIsRefusedWhereTheLimitIsPassed) {
  EXPECT_EQ(tokens(nested(64)).size(), 64u * 4 - 1);
  EXPECT_EQ(tokens(nested(65)), "error: invalid JSON: nesting deeper than 64 at byte 64");
  // 200 KB of nesting costs what 65 levels cost: the reader stops at byte 64.
  const std::string deep = nested(100'000);
  Reader r(deep, Limits{});
  Token t;
  while ((t = r.next()) == Token::kBeginArray) {}
  EXPECT_EQ(t, Token::kError);
  EXPECT_EQ(r.offset(), 64u);
  EXPECT_EQ(r.depth(), 64u);
}

TEST(JsonReader, ValuesAreCountedBeforeOneMoreIsRead) {
  Limits limits;
  limits.max_values = 5;
  EXPECT_EQ(tokens("[1,2,3,4]", limits), "[ n:1 n:2 n:3 n:4 ]");
  EXPECT_EQ(tokens("[1,2,3,4,5]", limits), "error: invalid JSON: more than 5 values at byte 9");
  EXPECT_EQ(tokens("{\"a\":{},\"b\":[],\"c\":1,\"d\":2}", limits), "{ k:a { } k:b [ ] k:c n:1 k:d n:2 }");
  EXPECT_EQ(tokens("{\"a\":{},\"b\":[],\"c\":1,\"d\":2,\"e\":3}", limits),
            "error: invalid JSON: more than 5 values at byte 31");
}

TEST(JsonReader, SizeIsRefusedBeforeTheFirstByteAndStringsAsTheyAreScanned) {
  Limits limits;
  limits.max_bytes = 8;
  EXPECT_EQ(tokens("[1,2,3,4]", limits), "error: invalid JSON: document of 9 bytes, more than the 8 allowed at byte 0");
  limits = {};
  limits.max_string_bytes = 4;
  EXPECT_EQ(tokens("[\"abcd\"]", limits), "[ s:abcd ]");
  EXPECT_EQ(tokens("[\"abcde\"]", limits), "error: invalid JSON: string longer than 4 bytes at byte 7");
  EXPECT_EQ(tokens("[\"ab\\ncde\"]", limits), "error: invalid JSON: string longer than 4 bytes at byte 8");
  EXPECT_EQ(tokens("{\"abcde\":1}", limits), "error: invalid JSON: string longer than 4 bytes at byte 7");
}

TEST(JsonReader, SkipPassesOverAWholeValue) {
  Reader r(R"({"skip":{"a":[1,{"b":2}],"c":"d"},"keep":3})", Limits{});
  ASSERT_EQ(r.next(), Token::kBeginObject);
  ASSERT_EQ(r.next(), Token::kKey);
  ASSERT_TRUE(r.skip(r.next()));
  ASSERT_EQ(r.next(), Token::kKey);
  EXPECT_EQ(r.text(), "keep");
  ASSERT_TRUE(r.skip(r.next()));
  EXPECT_EQ(r.next(), Token::kEndObject);
  EXPECT_EQ(r.next(), Token::kEnd);
  Reader bad(R"({"skip":[1,2)", Limits{});
  bad.next();
  bad.next();
  EXPECT_FALSE(bad.skip(bad.next()));
}

TEST(JsonReader, NumbersAsIntegersAndDoubles) {
  int64_t i = 0;
  uint64_t u = 0;
  double d = 0;
  EXPECT_TRUE(parseInt64("-9223372036854775808", &i) && i == INT64_MIN);
  EXPECT_FALSE(parseInt64("9223372036854775808", &i));
  EXPECT_FALSE(parseInt64("1.5", &i));
  EXPECT_TRUE(parseUint64("18446744073709551615", &u) && u == UINT64_MAX);
  EXPECT_FALSE(parseUint64("-1", &u));
  EXPECT_TRUE(parseDouble("-2.5e3", &d) && d == -2500);
}

TEST(JsonDocument, MembersElementsAndTheLastOfARepeatedName) {
  Document doc;
  ASSERT_TRUE(doc.parse(R"({"a":"x","list":[1,"two",{"k":true},[]],"a":"y","n":null})", Limits{}).isOk());
  const Value root = doc.root();
  ASSERT_TRUE(root.isObject());
  EXPECT_EQ(root.member("a")->text(), "y");
  EXPECT_TRUE(root.member("n")->isNull());
  EXPECT_FALSE(root.member("missing"));
  std::vector<std::string> kinds;
  root.member("list")->forEachElement([&](Value v) {
    kinds.push_back(v.isNumber() ? "n" + std::string(v.text()) : v.isString() ? "s" + std::string(v.text())
                                                              : v.isObject() ? "o" + std::string(v.member("k")->boolean() ? "t" : "f")
                                                                             : v.isArray() ? "a" : "?");
  });
  EXPECT_EQ(kinds, (std::vector<std::string>{"n1", "stwo", "ot", "a"}));
  std::vector<std::string> names;
  root.forEachMember([&](std::string_view name, Value) { names.emplace_back(name); });
  EXPECT_EQ(names, (std::vector<std::string>{"a", "list", "a", "n"}));
  EXPECT_FALSE(root.member("list")->member("k"));  // not an object
}

TEST(JsonDocument, LimitsAndErrorsComeFromTheReader) {
  Document doc;
  Limits limits;
  limits.max_values = 3;
  EXPECT_EQ(doc.parse("[1,2,3]", limits).message(), "invalid JSON: more than 3 values at byte 5");
  EXPECT_EQ(doc.parse(nested(70), Limits{}).message(), "invalid JSON: nesting deeper than 64 at byte 64");
  ASSERT_TRUE(doc.parse("[1,2]", limits).isOk());
}

TEST(JsonWriter, StructureAndCommas) {
  std::string out;
  Writer w(&out);
  w.beginObject().key("a").beginArray().int64(-1).uint64(2).string("s").boolean(true).null().beginObject().endObject();
  w.beginArray().endArray().endArray().key("q").quotedInt64(5).key("d").number(0.5).endObject();
  EXPECT_EQ(out, R"({"a":[-1,2,"s",true,null,{},[]],"q":"5","d":0.5})");
  Document doc;
  EXPECT_TRUE(doc.parse(out, Limits{}).isOk());
}

std::string utf8(uint32_t cp) {
  std::string o;
  if (cp < 0x80) {
    o += char(cp);
  } else if (cp < 0x800) {
    o += {char(0xc0 | cp >> 6), char(0x80 | (cp & 63))};
  } else if (cp < 0x10000) {
    o += {char(0xe0 | cp >> 12), char(0x80 | ((cp >> 6) & 63)), char(0x80 | (cp & 63))};
  } else {
    o += {char(0xf0 | cp >> 18), char(0x80 | ((cp >> 12) & 63)), char(0x80 | ((cp >> 6) & 63)), char(0x80 | (cp & 63))};
  }
  return o;
}

TEST(JsonWriter, EveryCodePointIsEscapedAsProtobufEscapesIt) {
  std::string text;
  for (uint32_t cp = 0; cp < 0x110000; ++cp)
    if (cp < 0xd800 || cp > 0xdfff) text += utf8(cp);
  google::protobuf::Value v;
  v.set_string_value(text);
  std::string want;
  ASSERT_TRUE(google::protobuf::util::MessageToJsonString(v, &want).ok());
  std::string got;
  appendString(got, text);
  ASSERT_EQ(got.size(), want.size());
  EXPECT_TRUE(got == want);
  Reader r(got, Limits{.max_bytes = size_t{64} << 20, .max_string_bytes = size_t{64} << 20});
  ASSERT_EQ(r.next(), Token::kString) << r.error().message();
  EXPECT_TRUE(r.text() == text);
}

TEST(JsonWriter, BytesAsBase64AndHex) {
  std::string out;
  Writer w(&out);
  w.beginArray().base64("").base64("\x01").base64("\x01\x02").base64("\xfb\xff\x01").hex(std::string("\x00\xab\x7f", 3));
  w.endArray();
  EXPECT_EQ(out, R"(["","AQ==","AQI=","+/8B","00ab7f"])");
}

TEST(JsonWriter, BytesThatAreNotUtf8BecomeTheReplacementCharacter) {
  std::string got;
  appendString(got, "a\xff" "b\xc3");
  EXPECT_EQ(got, "\"a\xef\xbf\xbd" "b\xef\xbf\xbd\"");
}

TEST(JsonWriter, DoublesAsProtobufPrintsThem) {
  std::vector<double> values = {0.0, -0.0, 0.1, 1.5, 3, 1e21, 1e-7, 123456789012345678.0, 5e-324, 1e300,
                                0.30000000000000004, 1e16, 123456.789, std::numeric_limits<double>::max(),
                                std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
                                -std::numeric_limits<double>::infinity()};
  std::mt19937_64 rng(7);
  for (int i = 0; i < 2000; ++i) {
    uint64_t bits = rng();
    double d;
    std::memcpy(&d, &bits, sizeof d);
    values.push_back(d);
    values.push_back(static_cast<double>(static_cast<int64_t>(rng()) >> (rng() % 64)));
  }
  for (double d : values) {
    google::protobuf::Value v;
    v.set_number_value(d);
    std::string want;
    if (!google::protobuf::util::MessageToJsonString(v, &want).ok()) continue;  // protobuf refuses NaN here
    std::string got;
    appendDouble(got, d);
    EXPECT_EQ(got, want) << d;
  }
}

}  // namespace
}  // namespace proflow::json
