#include "extensions/health_check/health_check.h"

#include <ctime>

#include "core/util/json/json_writer.h"

namespace proflow::extensions::health_check {
namespace {

// RFC 3339 in UTC with the fraction Go's time.Time JSON carries, e.g. 2026-12-07T10:00:00.123456789Z.
std::string rfc3339(std::chrono::system_clock::time_point t) {
  const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
  const std::time_t secs = static_cast<std::time_t>(ns / 1000000000);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[64];
  size_t n = std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
  if (const long frac = static_cast<long>(ns % 1000000000); frac != 0) {
    std::string digits = std::to_string(frac);
    digits.insert(0, 9 - digits.size(), '0');
    while (digits.back() == '0') digits.pop_back();
    n += std::snprintf(buf + n, sizeof buf - n, ".%s", digits.c_str());
  }
  return std::string(buf, n) + "Z";
}

// As Go's time.Duration prints it (the Collector's uptime): 49.0132518s, 1h2m3.5s, 3.5ms, 120µs.
std::string goDuration(std::chrono::nanoseconds d) {
  int64_t ns = d.count();
  if (ns <= 0) return "0s";
  auto fraction = [](int64_t v, int64_t unit) {
    std::string out = std::to_string(v / unit);
    if (const int64_t rest = v % unit; rest != 0) {
      std::string digits = std::to_string(rest);
      digits.insert(0, std::to_string(unit).size() - 1 - digits.size(), '0');
      while (digits.back() == '0') digits.pop_back();
      out += "." + digits;
    }
    return out;
  };
  if (ns < 1000) return std::to_string(ns) + "ns";
  if (ns < 1000000) return fraction(ns, 1000) + "\u00b5s";
  if (ns < 1000000000) return fraction(ns, 1000000) + "ms";
  std::string out;
  if (const int64_t h = ns / 3600000000000; h > 0) out += std::to_string(h) + "h";
  ns %= 3600000000000;
  if (const int64_t m = ns / 60000000000; m > 0 || !out.empty()) out += std::to_string(m) + "m";
  ns %= 60000000000;
  return out + fraction(ns, 1000000000) + "s";
}

}  // namespace

HealthCheck::HealthCheck(const CreateSettings& settings, HealthCheckConfig config)
    : settings_(settings), config_(std::move(config)) {}

HealthCheck::~HealthCheck() { shutdown(std::chrono::steady_clock::now()); }

Status HealthCheck::start(Host& host) {
  host_ = &host;
  return startHttpEndpoint(settings_, host, config_.server, "health_check " + settings_.id.str(),
                           [this](net::HttpServer& server) {
                             server.route("GET", config_.path, [this](net::HttpRequest&&, net::Responder respond) {
                               respond(answer());
                             });
                           },
                           &http_);
}

net::HttpResponse HealthCheck::answer() const {
  const bool healthy = host_->healthy();
  const int status = healthy ? 200 : 503;
  if (config_.response_body) {
    return net::HttpResponse::text(status, healthy ? config_.response_body->healthy : config_.response_body->unhealthy);
  }
  std::string body;
  json::Writer w(&body);
  w.beginObject();
  w.key("status").string(healthy ? "Server available" : "Server not available");
  if (healthy) {
    const auto since = host_->describe().started;
    w.key("upSince").string(rfc3339(since));
    w.key("uptime").string(goDuration(std::chrono::system_clock::now() - since));
  } else {
    w.key("upSince").string("0001-01-01T00:00:00Z");
    w.key("uptime").string("");
  }
  w.endObject();
  return {status, "application/json", std::move(body), {}, {}};
}

void HealthCheck::shutdown(Deadline) {
  if (http_) http_->stop();
}

}  // namespace proflow::extensions::health_check
