#include "extensions/symbolstore/http_api.h"

#include <boost/asio/post.hpp>

#include <charconv>
#include <fstream>
#include <functional>
#include <iterator>
#include <vector>

#include "core/net/http_util.h"
#include "core/net/in_flight_budget.h"
#include "extensions/symbolstore/elf_check.h"

namespace proflow::extensions::symbolstore {

namespace {

std::vector<std::string_view> splitPath(std::string_view path) {
  std::vector<std::string_view> parts;
  while (!path.empty()) {
    size_t slash = path.find('/');
    std::string_view part = path.substr(0, slash);
    if (!part.empty()) parts.push_back(part);
    if (slash == std::string_view::npos) break;
    path.remove_prefix(slash + 1);
  }
  return parts;
}

net::HttpResponse errorText(int status, const Status& s) { return net::HttpResponse::text(status, s.message() + "\n"); }

int httpStatusOf(const Status& s) {
  switch (s.code()) {
    case StatusCode::kInvalidArgument: return 400;
    case StatusCode::kPayloadTooLarge: return 413;
    case StatusCode::kFailedPrecondition: return 409;  // stored already, with other content
    default: return 503;
  }
}

net::HttpResponse handlePut(const net::HttpRequest& req, SymbolStore& store) {
  // /debuginfo/<id> or /debuginfo/<id>/executable (also .../debuginfo, for symmetry with GET).
  auto parts = splitPath(req.path);
  std::optional<std::string> id = parts.size() >= 2 ? normalizeBuildId(parts[1]) : std::nullopt;
  Artifact artifact = Artifact::kDebuginfo;
  bool ok = id && parts.size() <= 3;
  if (ok && parts.size() == 3) {
    if (parts[2] == "executable") artifact = Artifact::kExecutable;
    else ok = parts[2] == "debuginfo";
  }
  if (!ok) {
    store.countRefused("http", "bad_request");
    return errorText(400, Status::invalid("expected PUT /debuginfo/<build id>[/executable] with a hex GNU build id"));
  }
  if (req.body.size() > store.maxUploadSize()) {  // a decompressed body may pass the wire check
    store.countRefused("http", "too_large");
    return errorText(413, Status::tooLarge("larger than max_upload_size"));
  }
  Status s = store.storeBytes(req.body, *id, artifact, "http");
  if (!s.isOk()) return errorText(httpStatusOf(s), s);
  return net::HttpResponse::text(201, "stored " + *id + " " + artifactName(artifact) + "\n");
}

net::HttpResponse handleGet(net::HttpRequest& req, SymbolStore& store, net::InFlightBudget& budget) {
  // /buildid/<id>/<artifact>[/...]
  auto parts = splitPath(req.path);
  if (parts.size() < 3) {
    return net::HttpResponse::text(404, "not found\n");
  }
  std::optional<std::string> id = normalizeBuildId(parts[1]);
  if (!id || *id != parts[1]) return net::HttpResponse::text(400, "invalid buildid (lower-case hex, even length)\n");
  Artifact artifact;
  if (parts[2] == "debuginfo" && parts.size() == 3) artifact = Artifact::kDebuginfo;
  else if (parts[2] == "executable" && parts.size() == 3) artifact = Artifact::kExecutable;
  else if (parts[2] == "source" || parts[2] == "section") {
    return net::HttpResponse::text(404, "not found (sources and sections are not stored)\n");
  } else {
    return net::HttpResponse::text(400, "invalid artifacttype\n");
  }
  std::optional<std::string> path = store.find(*id, artifact);
  std::ifstream in;
  if (path) in.open(*path, std::ios::binary);
  if (!path || !in) return net::HttpResponse::text(404, "not found\n");
  in.seekg(0, std::ios::end);
  const auto size = static_cast<size_t>(in.tellg());
  in.seekg(0);
  const std::string_view max = req.header("X-DEBUGINFOD-MAXSIZE");
  uint64_t limit = 0;
  if (!max.empty() && std::from_chars(max.data(), max.data() + max.size(), limit).ec == std::errc() && limit > 0 &&
      size > limit) {
    return net::HttpResponse::text(406, "File too large, max size=" + std::string(max) + "\n");
  }
  // Claimed while the file is in memory, until the connection has written it.
  if (Status s = budget.acquire(size, &req.in_flight, "download"); !s.isOk()) {
    net::HttpResponse r = net::HttpResponse::text(429, s.message() + "\n");
    r.headers.emplace_back("Retry-After", net::retryAfterSeconds(s));
    return r;
  }
  std::string body(size, '\0');
  if (!in.read(body.data(), static_cast<std::streamsize>(size))) return net::HttpResponse::text(404, "not found\n");
  net::HttpResponse r;
  r.status = 200;
  r.content_type = "application/octet-stream";
  r.headers = {{"X-DEBUGINFOD-SIZE", std::to_string(body.size())},
               {"X-DEBUGINFOD-FILE", artifactName(artifact)},
               {"Cache-Control", "public"}};
  r.body = std::move(body);
  r.held_until_written = req.in_flight;
  return r;
}

}  // namespace

void addHttpRoutes(net::HttpServer& server, SymbolStore& store, Runtime& runtime,
                   std::shared_ptr<net::InFlightBudget> budget) {
  using Handler = std::function<net::HttpResponse(net::HttpRequest&)>;
  auto onWorkers = [&runtime](Handler handler) {
    return [&runtime, handler](net::HttpRequest&& req, net::Responder respond) {
      boost::asio::post(runtime.workers(), [handler, req = std::move(req), respond]() mutable {
        net::HttpResponse r = handler(req);
        // The request's claim and body are let go before the answer leaves: a client that sends
        // its next upload as soon as it reads this one's answer finds the budget free again.
        req = net::HttpRequest{};
        respond(std::move(r));
      });
    };
  };
  server.route("PUT", "/debuginfo/*", onWorkers([&store](net::HttpRequest& req) { return handlePut(req, store); }));
  server.route("GET", "/buildid/*",
               onWorkers([&store, budget](net::HttpRequest& req) { return handleGet(req, store, *budget); }));
}

}  // namespace proflow::extensions::symbolstore
