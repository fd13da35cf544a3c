// multipart/form-data parsing: what curl -F and the SDKs send, and malformed bodies.
#include <gtest/gtest.h>

#include "core/net/multipart.h"

namespace proflow::net {
namespace {

TEST(MultipartTest, BoundaryFromContentType) {
  EXPECT_EQ(multipartBoundary("multipart/form-data; boundary=------abc123"), "------abc123");
  EXPECT_EQ(multipartBoundary("Multipart/Form-Data; charset=utf-8; boundary=\"a b\""), "a b");
  EXPECT_EQ(multipartBoundary("application/octet-stream"), "");
}

TEST(MultipartTest, PartsWithBinaryData) {
  const std::string bin("\x1f\x8b\x00\r\n--not-the-boundary\r\n", 25);
  const std::string body = "preamble\r\n--XYZ\r\n"
                           "Content-Disposition: form-data; name=\"profile\"; filename=\"profile.pprof\"\r\n"
                           "Content-Type: application/octet-stream\r\n\r\n" +
                           bin +
                           "\r\n--XYZ  \r\n"
                           "content-disposition: form-data; name=sample_type_config\r\n\r\n"
                           "{}\r\n--XYZ--\r\n";
  std::vector<FormPart> parts;
  ASSERT_TRUE(parseMultipart(body, "XYZ", &parts).isOk());
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_EQ(parts[0].name, "profile");
  EXPECT_EQ(parts[0].filename, "profile.pprof");
  EXPECT_EQ(parts[0].content_type, "application/octet-stream");
  EXPECT_EQ(parts[0].data, bin);
  EXPECT_EQ(parts[1].name, "sample_type_config");
  EXPECT_EQ(parts[1].data, "{}");
}

TEST(MultipartTest, MalformedBodiesAreErrors) {
  std::vector<FormPart> parts;
  const std::string head = "--B\r\nContent-Disposition: form-data; name=\"profile\"\r\n\r\ndata";
  EXPECT_FALSE(parseMultipart(head, "B", &parts).isOk());                   // no closing boundary
  EXPECT_FALSE(parseMultipart(head + "\r\n--B--", "", &parts).isOk());      // no boundary
  EXPECT_FALSE(parseMultipart("garbage", "B", &parts).isOk());              // boundary never appears
  EXPECT_FALSE(parseMultipart("--B\r\nX-Other: 1\r\n\r\nd\r\n--B--", "B", &parts).isOk());  // no disposition
  EXPECT_FALSE(parseMultipart("--B\r\nContent-Disposition: form-data\r\n\r\nd\r\n--B--", "B", &parts).isOk());
  EXPECT_FALSE(parseMultipart("--B\r\nContent-Disposition: form-data; name=a", "B", &parts).isOk());
  std::string many;
  for (int i = 0; i < 20; ++i) many += "--B\r\nContent-Disposition: form-data; name=p\r\n\r\nx\r\n";
  many += "--B--";
  Status s = parseMultipart(many, "B", &parts);
  EXPECT_FALSE(s.isOk());
  EXPECT_NE(s.message().find("more than 16 parts"), std::string::npos) << s.message();
  const std::string complete = head + "\r\n--B--";  // parts are views into the body: it must outlive them
  ASSERT_TRUE(parseMultipart(complete, "B", &parts).isOk());
  EXPECT_EQ(parts.at(0).data, "data");
}

}  // namespace
}  // namespace proflow::net
