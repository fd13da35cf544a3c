// The HTTP server's request path without a socket. core/net has no pure function that parses a request
// (the connection drives Beast's parser from async reads), so this drives the same parser the same way
// — header limit, then body limit, eager body — and then runs the steps the connection takes on what
// it parsed: target split, query decoding, header map, Content-Encoding lookup, bounded decompression.
#include <boost/asio/buffer.hpp>
#include <boost/beast/http.hpp>
#include <string>

#include "core/compression/compression.h"
#include "core/net/http_types.h"
#include "tests/fuzz/fuzz_common.h"

namespace {

namespace http = boost::beast::http;

constexpr size_t kHeaderLimit = 8 << 10;
constexpr size_t kBodyLimit = 1 << 20;

void handleHead(const http::request_parser<http::string_body>& parser, proflow::net::HttpRequest* req) {
  const auto& h = parser.get();
  req->method = std::string(h.method_string());
  req->target = std::string(h.target());
  std::string_view target(h.target().data(), h.target().size());
  size_t q = target.find('?');
  req->path = std::string(target.substr(0, q));
  if (q != std::string_view::npos) req->query = proflow::net::parseQuery(target.substr(q + 1));
  for (const auto& f : h) req->headers.emplace(std::string(f.name_string()), std::string(f.value()));
  for (const auto& [k, v] : req->query) FUZZ_CHECK(k.size() + v.size() <= target.size(), "decoded query grew");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace proflow;
  http::request_parser<http::string_body> parser;
  parser.header_limit(static_cast<uint32_t>(kHeaderLimit));
  parser.body_limit(static_cast<uint64_t>(kBodyLimit));
  parser.eager(true);
  boost::beast::error_code ec;
  size_t used = 0;
  while (used < size && !ec && !parser.is_done()) {
    size_t n = parser.put(boost::asio::buffer(data + used, size - used), ec);
    if (ec == http::error::need_more) {
      ec = {};
      if (n == 0) break;
    }
    used += n;
  }
  if (ec || !parser.is_header_done()) return 0;
  net::HttpRequest req;
  handleHead(parser, &req);
  const auto codec = compression::codecFromName(req.header("Content-Encoding"));
  if (!codec || !parser.is_done()) return 0;
  const std::string& wire = parser.get().body();
  FUZZ_CHECK(wire.size() <= kBodyLimit, "body over the limit");
  compression::Limits limits;
  limits.max_output_bytes = kBodyLimit;
  if (compression::decompress(*codec, wire, req.body, limits).isOk())
    FUZZ_CHECK(req.body.size() <= kBodyLimit, "inflated body over the limit: " + std::to_string(req.body.size()));
  return 0;
}
