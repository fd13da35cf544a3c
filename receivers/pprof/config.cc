#include "receivers/pprof/config.h"

#include <algorithm>
#include <set>

#include "core/net/endpoint.h"

namespace proflow::receivers::pprof {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

constexpr const char* kNamedProfiles[] = {"cpu", "heap", "allocs", "mutex", "block", "goroutine", "threadcreate"};

// "" when `url` (already normalized) is an http(s) URL with a valid host:port and no query.
std::string checkTargetUrl(const std::string& url) {
  const size_t sep = url.find("://");
  const std::string scheme = url.substr(0, sep);
  if (scheme != "http" && scheme != "https") return "scheme must be http or https: '" + url + "'";
  std::string rest = url.substr(sep + 3);
  if (rest.find_first_of("?#@") != std::string::npos) return "must not contain a query, fragment or user info: '" + url + "'";
  std::string authority = rest.substr(0, rest.find('/'));
  net::Endpoint ep;
  // parseEndpoint needs a port; a URL may omit it (scheme default).
  const bool has_port = authority.find(':', authority.rfind(']') == std::string::npos ? 0 : authority.rfind(']')) !=
                        std::string::npos;
  if (Status s = net::parseEndpoint(has_port ? authority : authority + ":80", &ep); !s.isOk()) return s.message();
  if (ep.host.empty()) return "missing host: '" + url + "'";
  return "";
}

void validateTarget(const ScrapeTargetConfig& t, config::ValidationContext ctx) {
  if (t.endpoint.empty()) {
    ctx.error("endpoint", "required: the base URL of the program, e.g. http://127.0.0.1:6060");
  } else if (std::string err = checkTargetUrl(normalizeTargetUrl(t.endpoint)); !err.empty()) {
    ctx.error("endpoint", err);
  }
  if (t.profiles.empty()) ctx.error("profiles", "list at least one profile");
  for (const auto& p : t.profiles) {
    if (profilePath(p, 1).empty())
      ctx.error("profiles", "unknown profile '" + p +
                                "'; use cpu, heap, allocs, mutex, block, goroutine, threadcreate or a path like "
                                "/debug/pprof/fgprof");
  }
  if (std::set<std::string>(t.profiles.begin(), t.profiles.end()).size() != t.profiles.size())
    ctx.error("profiles", "lists a profile twice");
  for (const auto& [k, v] : t.labels)
    if (k.empty()) ctx.error("labels", "label names must not be empty");
}

void validateScrape(const ScrapeConfig& s, config::ValidationContext ctx) {
  if (s.interval.value < seconds(1)) ctx.error("interval", "must be at least 1s");
  if (s.timeout.value.count() < 0) ctx.error("timeout", "must not be negative");
  if (s.jitter && s.jitter->value.count() < 0) ctx.error("jitter", "must not be negative");
  if (s.max_cpu_duration.value < seconds(1)) ctx.error("max_cpu_duration", "must be at least 1s");
  if (s.max_response_size.bytes == 0) ctx.error("max_response_size", "must be greater than 0");
  if (s.max_delta_keys < 1) ctx.error("max_delta_keys", "must be at least 1");
  if (s.max_concurrent_scrapes < 1 || s.max_concurrent_scrapes > 1024)
    ctx.error("max_concurrent_scrapes", "must be between 1 and 1024");
  if (s.targets.empty()) ctx.error("targets", "list at least one target");
  for (size_t i = 0; i < s.targets.size(); ++i) validateTarget(s.targets[i], ctx.nested("targets[" + std::to_string(i) + "]"));
}

}  // namespace

milliseconds ScrapeConfig::effectiveTimeout() const {
  return timeout.zero() ? interval.ms() + seconds(3) : timeout.ms();
}

milliseconds ScrapeConfig::effectiveJitter() const { return jitter ? jitter->ms() : interval.ms(); }

int ScrapeConfig::cpuSeconds() const {
  // Leave a second of the interval (and of the timeout) for transfer, as Alloy does.
  auto n = std::chrono::duration_cast<seconds>(interval.value).count() - 1;
  n = std::min<int64_t>(n, std::chrono::duration_cast<seconds>(max_cpu_duration.value).count());
  n = std::min<int64_t>(n, std::chrono::duration_cast<seconds>(effectiveTimeout()).count() - 1);
  return static_cast<int>(std::max<int64_t>(n, 1));
}

std::string profilePath(const std::string& name, int cpu_seconds) {
  if (!name.empty() && name[0] == '/') return name;
  if (name == "cpu") return "/debug/pprof/profile?seconds=" + std::to_string(cpu_seconds);
  for (const char* known : kNamedProfiles)
    if (name == known) return "/debug/pprof/" + name;
  return "";
}

std::string normalizeTargetUrl(const std::string& endpoint) {
  std::string url = endpoint.find("://") == std::string::npos ? "http://" + endpoint : endpoint;
  while (!url.empty() && url.back() == '/') url.pop_back();
  return url;
}

void PprofReceiverConfig::validate(config::ValidationContext& ctx) const {
  if (endpoint.empty() && !scrape)
    ctx.error("endpoint", "empty endpoint turns push off: configure scrape targets or an endpoint");
  validateListener(ctx, /*endpoint_optional=*/true);
  for (const auto& [k, v] : attributes)
    if (k.empty()) ctx.error("attributes", "attribute names must not be empty");
  if (scrape) validateScrape(*scrape, ctx.nested("scrape"));
}

}  // namespace proflow::receivers::pprof
