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
    default: return 503;
  }
}

void handlePut(net::HttpRequest&& req, net::Responder respond, SymbolStore& store) {
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
    respond(errorText(400, Status::invalid("expected PUT /debuginfo/<build id>[/executable] with a hex GNU build id")));
    return;
  }
  if (req.body.size() > store.maxUploadSize()) {  // a decompressed body may pass the wire check
    store.countRefused("http", "too_large");
    respond(errorText(413, Status::tooLarge("larger than max_upload_size")));
    return;
  }
  Status s = store.storeBytes(req.body, *id, artifact, "http");
  if (!s.isOk()) {
    respond(errorText(httpStatusOf(s), s));
    return;
  }
  respond(net::HttpResponse::text(201, "stored " + *id + " " + artifactName(artifact) + "\n"));
}

void handleGet(net::HttpRequest&& req, net::Responder respond, SymbolStore& store, net::InFlightBudget& budget) {
  // /buildid/<id>/<artifact>[/...]
  auto parts = splitPath(req.path);
  if (parts.size() < 3) {
    respond(net::HttpResponse::text(404, "not found\n"));
    return;
  }
  std::optional<std::string> id = normalizeBuildId(parts[1]);
  if (!id || *id != parts[1]) {
    respond(net::HttpResponse::text(400, "invalid buildid (lower-case hex, even length)\n"));
    return;
  }
  Artifact artifact;
  if (parts[2] == "debuginfo" && parts.size() == 3) artifact = Artifact::kDebuginfo;
  else if (parts[2] == "executable" && parts.size() == 3) artifact = Artifact::kExecutable;
  else if (parts[2] == "source" || parts[2] == "section") {
    respond(net::HttpResponse::text(404, "not found (sources and sections are not stored)\n"));
    return;
  } else {
    respond(net::HttpResponse::text(400, "invalid artifacttype\n"));
    return;
  }
  std::optional<std::string> path = store.find(*id, artifact);
  std::ifstream in;
  if (path) in.open(*path, std::ios::binary);
  if (!path || !in) {
    respond(net::HttpResponse::text(404, "not found\n"));
    return;
  }
  in.seekg(0, std::ios::end);
  const auto size = static_cast<size_t>(in.tellg());
  in.seekg(0);
  const std::string_view max = req.header("X-DEBUGINFOD-MAXSIZE");
  uint64_t limit = 0;
  if (!max.empty() && std::from_chars(max.data(), max.data() + max.size(), limit).ec == std::errc() && limit > 0 &&
      size > limit) {
    respond(net::HttpResponse::text(406, "File too large, max size=" + std::string(max) + "\n"));
    return;
  }
  // Claimed while the file is read into memory and handed to the connection.
  if (Status s = budget.acquire(size, &req.in_flight, "download"); !s.isOk()) {
    net::HttpResponse r = net::HttpResponse::text(429, s.message() + "\n");
    r.headers.emplace_back("Retry-After", net::retryAfterSeconds(s));
    respond(std::move(r));
    return;
  }
  std::string body(size, '\0');
  if (!in.read(body.data(), static_cast<std::streamsize>(size))) {
    respond(net::HttpResponse::text(404, "not found\n"));
    return;
  }
  net::HttpResponse r;
  r.status = 200;
  r.content_type = "application/octet-stream";
  r.headers = {{"X-DEBUGINFOD-SIZE", std::to_string(body.size())},
               {"X-DEBUGINFOD-FILE", artifactName(artifact)},
               {"Cache-Control", "public"}};
  r.body = std::move(body);
  respond(std::move(r));
}

}  // namespace

void addHttpRoutes(net::HttpServer& server, SymbolStore& store, Runtime& runtime,
                   std::shared_ptr<net::InFlightBudget> budget) {
  using Handler = std::function<void(net::HttpRequest&&, net::Responder)>;
  auto onWorkers = [&runtime](Handler handler) {
    return [&runtime, handler](net::HttpRequest&& req, net::Responder respond) {
      boost::asio::post(runtime.workers(),
                        [handler, req = std::move(req), respond]() mutable { handler(std::move(req), respond); });
    };
  };
  server.route("PUT", "/debuginfo/*", onWorkers([&store](net::HttpRequest&& req, net::Responder respond) {
                 handlePut(std::move(req), respond, store);
               }));
  server.route("GET", "/buildid/*", onWorkers([&store, budget](net::HttpRequest&& req, net::Responder respond) {
                 handleGet(std::move(req), respond, store, *budget);
               }));
}

}  // namespace proflow::extensions::symbolstore
