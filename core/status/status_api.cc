#include "core/status/status_api.h"

#include <cmath>
#include <set>

#include "core/component/component.h"
#include "core/status/json_text.h"
#include "core/util/json/json_writer.h"
#include "core/status/last_errors.h"

namespace proflow::status {
namespace {

using std::chrono::seconds;

constexpr auto kRateWindow = std::chrono::seconds(30);
const char* const kEvents[] = {"received", "accepted", "refused", "sent", "failed", "dropped"};
const char* const kItems[] = {"batches", "profiles", "samples"};

// "1m", "5m", "15m" -> seconds; 0 when not one of them.
seconds parseWindow(std::string_view w) {
  if (w == "1m") return seconds(60);
  if (w == "5m") return seconds(300);
  if (w == "15m") return seconds(900);
  return seconds(0);
}

net::HttpResponse json(int status, std::string body) {
  return {status, "application/json; charset=utf-8", std::move(body), {{"Cache-Control", "no-store"}}};
}

net::HttpResponse badRequest(const std::string& message) { return net::HttpResponse::text(400, message + "\n"); }

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
}

// The series type `type` names for `service`, from the published listing: a full type
// ("cpu/nanoseconds") names itself; a bare sample type ("cpu") names the one type of that service
// whose sample type it is. Otherwise an error (404 or 400) that lists what there is.
bool resolveType(const SeriesListing& listing, const std::string& service, const std::string& type,
                 std::string* resolved, net::HttpResponse* error) {
  std::vector<std::string> types, matches;
  std::set<std::string> services;
  for (const auto& s : listing.series) {
    services.insert(s.service);
    if (s.service != service) continue;
    types.push_back(s.type);
    const size_t slash = s.type.rfind('/');
    if (s.type == type || (type.find('/') == std::string::npos && s.type.substr(0, slash) == type))
      matches.push_back(s.type);
  }
  if (matches.size() == 1) {
    *resolved = matches.front();
    return true;
  }
  if (matches.size() > 1) {
    *error = badRequest("type '" + type + "' names several series of service '" + service + "': " + joined(matches) +
                        "; give one of them");
  } else if (!types.empty()) {
    *error = net::HttpResponse::text(404, "no data for service '" + service + "' and type '" + type +
                                              "' in the last 15m; its types: " + joined(types) + "\n");
  } else {
    *error = net::HttpResponse::text(
        404, "no data for service '" + service + "' in the last 15m; services: " +
                 (services.empty() ? std::string("none yet") : joined({services.begin(), services.end()})) + "\n");
  }
  return false;
}

}  // namespace

StatusApi::StatusApi(telemetry::MetricsRegistry& metrics, FlameTap* tap, std::function<bool()> healthy)
    : metrics_(metrics), tap_(tap), healthy_(std::move(healthy)) {
  history_.push_back({started_, {}});  // counters start at zero: the first rates run from here
}

void StatusApi::setConfig(std::shared_ptr<const config::ServiceConfig> config) {
  std::lock_guard lock(mu_);
  config_ = std::move(config);
}

void StatusApi::addRoutes(const Route& route) {
  auto asset = [](const char* type, const char* body) {
    return [type, body](const net::HttpRequest&) {
      return net::HttpResponse{200, type, body, {{"Cache-Control", "no-cache"}}};
    };
  };
  route("GET", "/", asset("text/html; charset=utf-8", kStatusPageHtml));
  route("GET", "/status.css", asset("text/css; charset=utf-8", kStatusPageCss));
  route("GET", "/status.js", asset("text/javascript; charset=utf-8", kStatusPageJs));
  route("GET", "/units.js", asset("text/javascript; charset=utf-8", kStatusPageUnitsJs));
  route("GET", "/api/status", [this](const net::HttpRequest&) { return status(); });
  route("GET", "/api/flamegraph/series", [this](const net::HttpRequest&) { return series(); });
  route("GET", "/api/flamegraph", [this](const net::HttpRequest& r) { return flamegraph(r); });
}

telemetry::Labels StatusApi::Component::labels() const {
  telemetry::Labels l{{kind, id}};
  if (!pipeline.empty()) l.emplace_back("pipeline", pipeline);
  return l;
}

std::vector<StatusApi::Component> StatusApi::components(const config::ServiceConfig& cfg) const {
  std::vector<Component> out;
  std::set<std::string> seen;
  auto add = [&](const char* kind, const ComponentId& id, const std::string& pipeline) {
    if (seen.insert(std::string(kind) + "|" + id.str() + "|" + pipeline).second) out.push_back({kind, id.str(), pipeline});
  };
  for (const auto& p : cfg.pipelines) {
    for (const auto& id : p.receivers) add("receiver", id, "");
    for (const auto& id : p.processors) add("processor", id, p.name);
    for (const auto& id : p.exporters) add("exporter", id, "");
  }
  return out;
}

// Profiles and samples a component handled (receivers: accepted, others: received) and its bytes.
std::array<double, 3> StatusApi::rateInputs(const Component& c) const {
  const std::string prefix = "proflow_" + c.kind + "_";
  const char* event = c.kind == "receiver" ? "accepted" : "received";
  const auto labels = c.labels();
  return {metrics_.value(prefix + event + "_profiles_total", labels),
          metrics_.value(prefix + event + "_samples_total", labels),
          metrics_.value(prefix + "bytes_in_total", labels) + metrics_.value(prefix + "bytes_out_total", labels)};
}

void StatusApi::componentJson(std::string& out, const Component& c, const Snapshot& now, const Snapshot* then) const {
  const std::string prefix = "proflow_" + c.kind + "_";
  const auto labels = c.labels();
  auto value = [&](const std::string& name) { return metrics_.value(prefix + name, labels); };
  out += "{\"kind\":";
  json::appendString(out, c.kind);
  out += ",\"id\":";
  json::appendString(out, c.id);
  out += ",\"pipeline\":";
  json::appendString(out, c.pipeline);
  out += ",\"totals\":{";
  bool first = true;
  for (const char* e : kEvents)
    for (const char* i : kItems) {
      out += first ? "\"" : ",\"";
      first = false;
      out += std::string(e) + "_" + i + "\":";
      appendJsonNumber(out, value(std::string(e) + "_" + i + "_total"));
    }
  out += ",\"bytes_in\":";
  appendJsonNumber(out, value("bytes_in_total"));
  out += ",\"bytes_out\":";
  appendJsonNumber(out, value("bytes_out_total"));
  out += "},\"rates\":";
  const std::string key = c.kind + "|" + c.id + "|" + c.pipeline;
  auto cur = now.values.find(key);
  const double dt = then ? std::chrono::duration<double>(now.at - then->at).count() : 0;
  if (cur == now.values.end() || !then || dt <= 0) {
    out += "null";
  } else {
    auto prev = then->values.find(key);
    const std::array<double, 3> before = prev == then->values.end() ? std::array<double, 3>{} : prev->second;
    auto rate = [&](int i) { return std::max(0.0, (cur->second[i] - before[i]) / dt); };
    out += "{\"profiles\":";
    appendJsonNumber(out, rate(0));
    out += ",\"samples\":";
    appendJsonNumber(out, rate(1));
    out += ",\"bytes\":";
    appendJsonNumber(out, rate(2));
    out += "}";
  }
  out += ",\"refused\":";
  appendJsonNumber(out, value("refused_batches_total"));
  out += ",\"errors\":";
  appendJsonNumber(out, value("failed_batches_total"));
  out += ",\"dropped\":";
  appendJsonNumber(out, value("dropped_batches_total"));
  out += ",\"queue_size\":";
  appendJsonNumber(out, value("queue_size"));
  out += ",\"queue_capacity\":";
  appendJsonNumber(out, value("queue_capacity"));
  out += ",\"last_error\":";
  if (auto e = lastError(c.kind, c.id)) {
    out += "{\"message\":";
    json::appendString(out, e->message);
    out += ",\"unix_seconds\":";
    appendJsonNumber(out, std::chrono::duration<double>(e->at.time_since_epoch()).count());
    out += "}";
  } else {
    out += "null";
  }
  out += "}";
}

net::HttpResponse StatusApi::status() {
  std::lock_guard lock(mu_);
  if (!config_) return net::HttpResponse::text(503, "the service is starting\n");
  const auto comps = components(*config_);
  Snapshot now{std::chrono::steady_clock::now(), {}};
  for (const auto& c : comps) now.values[c.kind + "|" + c.id + "|" + c.pipeline] = rateInputs(c);
  // The oldest snapshot within the rate window (at least a second old) is the reference.
  while (history_.size() > 1 && now.at - history_.front().at > kRateWindow) history_.pop_front();
  const Snapshot* then = nullptr;
  for (const auto& s : history_)
    if (now.at - s.at >= std::chrono::seconds(1)) {
      then = &s;
      break;
    }

  std::string out = "{\"version\":";
  json::appendString(out, PROFLOW_VERSION);
  out += ",\"healthy\":";
  out += healthy_() ? "true" : "false";
  out += ",\"uptime_seconds\":";
  appendJsonNumber(out, std::round(std::chrono::duration<double>(now.at - started_).count()));
  out += ",\"rate_seconds\":";
  appendJsonNumber(out, then ? std::chrono::duration<double>(now.at - then->at).count() : 0);
  out += ",\"pipelines\":[";
  for (size_t p = 0; p < config_->pipelines.size(); ++p) {
    const auto& pc = config_->pipelines[p];
    out += p ? ",{\"name\":" : "{\"name\":";
    json::appendString(out, pc.name);
    for (const auto& [field, ids] : {std::pair{"receivers", &pc.receivers}, std::pair{"processors", &pc.processors},
                                      std::pair{"exporters", &pc.exporters}}) {
      out += ",\"" + std::string(field) + "\":[";
      for (size_t i = 0; i < ids->size(); ++i) {
        if (i) out += ',';
        json::appendString(out, (*ids)[i].str());
      }
      out += "]";
    }
    out += "}";
  }
  out += "],\"components\":[";
  for (size_t i = 0; i < comps.size(); ++i) {
    if (i) out += ',';
    componentJson(out, comps[i], now, then);
  }
  out += "],\"flamegraph\":";
  if (!tap_) {
    out += "null";
  } else {
    out += "{\"memory_bytes\":";
    appendJsonNumber(out, static_cast<double>(tap_->memoryBytes()));
    out += ",\"max_bytes\":";
    appendJsonNumber(out, static_cast<double>(tap_->maxBytes()));
    out += ",\"dropped_samples\":";
    appendJsonNumber(out, static_cast<double>(tap_->droppedSamples()));
    out += ",\"skipped_batches\":";
    appendJsonNumber(out, static_cast<double>(tap_->skippedBatches()));
    out += "}";
  }
  out += "}";
  if (history_.empty() || now.at - history_.back().at >= std::chrono::seconds(1)) history_.push_back(std::move(now));
  return json(200, std::move(out));
}

net::HttpResponse StatusApi::series() {
  if (!tap_) return net::HttpResponse::text(404, "the flame graph is off (service.telemetry.status.flamegraph.enabled)\n");
  // A snapshot the aggregation thread published: formatting it holds no lock.
  const SeriesListingPtr listing = tap_->series();
  std::string out = "{\"windows\":[\"1m\",\"5m\",\"15m\"],\"total_series\":";
  appendJsonNumber(out, static_cast<double>(listing->total));
  out += ",\"series\":[";
  bool first = true;
  for (const auto& s : listing->series) {
    out += first ? "{\"service\":" : ",{\"service\":";
    first = false;
    json::appendString(out, s.service);
    out += ",\"type\":";
    json::appendString(out, s.type);
    out += ",\"samples\":";
    appendJsonNumber(out, static_cast<double>(s.samples));
    out += ",\"value\":";
    appendJsonNumber(out, static_cast<double>(s.value));
    out += "}";
  }
  out += "]}";
  return json(200, std::move(out));
}

net::HttpResponse StatusApi::flamegraph(const net::HttpRequest& request) {
  if (!tap_) return net::HttpResponse::text(404, "the flame graph is off (service.telemetry.status.flamegraph.enabled)\n");
  static const std::set<std::string> kKnown = {"service", "type", "window", "compare", "format"};
  for (const auto& [key, v] : request.query) {
    if (!kKnown.count(key)) return badRequest("unknown parameter '" + key + "'; valid: compare, format, service, type, window");
    if (request.query.count(key) > 1) return badRequest("parameter '" + key + "' given more than once");
  }
  const std::string service(request.queryValue("service")), type(request.queryValue("type"));
  if (service.empty()) return badRequest("parameter 'service' is required (GET /api/flamegraph/series lists them)");
  if (type.empty())
    return badRequest("parameter 'type' is required, e.g. cpu/nanoseconds or cpu (GET /api/flamegraph/series lists them)");
  const std::string window = request.query.count("window") ? std::string(request.queryValue("window")) : "1m";
  const seconds w = parseWindow(window);
  if (w.count() == 0) return badRequest("parameter 'window' must be 1m, 5m or 15m, got '" + window + "'");
  const std::string compare(request.queryValue("compare"));
  const seconds c = parseWindow(compare);
  if (request.query.count("compare") && c.count() == 0)
    return badRequest("parameter 'compare' must be 1m, 5m or 15m, got '" + compare + "'");
  const std::string format = request.query.count("format") ? std::string(request.queryValue("format")) : "json";
  if (format != "json" && format != "pprof") return badRequest("parameter 'format' must be json or pprof, got '" + format + "'");
  if (format == "pprof" && c.count() > 0) return badRequest("parameter 'compare' applies to format=json only");

  FlameTree tree;
  if (!tap_->tree(service, type, w, c, &tree)) {
    std::string resolved;
    net::HttpResponse error;
    if (!resolveType(*tap_->series(), service, type, &resolved, &error)) return error;
    if (!tap_->tree(service, resolved, w, c, &tree))  // expired since the listing was published
      return net::HttpResponse::text(404, "no data for service '" + service + "' and type '" + resolved + "' in the last 15m\n");
  }
  if (format == "json") return json(200, flameTreeJson(tree, window, compare));
  const auto now = std::chrono::system_clock::now().time_since_epoch();
  net::HttpResponse r{200, "application/octet-stream",
                      flameTreePprof(tree, std::chrono::duration_cast<std::chrono::nanoseconds>(now).count()), {}};
  r.headers.emplace_back("Content-Disposition", "attachment; filename=\"profile.pb.gz\"");
  return r;
}

}  // namespace proflow::status
