#include "extensions/zpages/zpages.h"

#include <ctime>
#include <functional>
#include <string>

#include "core/config/config_types.h"

namespace proflow::extensions::zpages {
namespace {

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string page(const std::string& title, const std::string& body) {
  return "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" + title +
         "</title><style>body{font-family:sans-serif}table{border-collapse:collapse}"
         "td,th{border:1px solid #ccc;padding:4px 8px;text-align:left}</style></head><body>\n<h1>" +
         title + "</h1>\n" + body + "\n</body></html>\n";
}

std::string utc(std::chrono::system_clock::time_point t) {
  const std::time_t secs = std::chrono::system_clock::to_time_t(t);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S UTC", &tm);
  return buf;
}

std::string list(const std::vector<std::string>& ids) {
  std::string out;
  for (const auto& id : ids) out += (out.empty() ? "" : "<br>") + escape(id);
  return out.empty() ? "&ndash;" : out;
}

constexpr const char* kLinks =
    "<p><a href=\"/debug/servicez\">servicez</a> | <a href=\"/debug/pipelinez\">pipelinez</a> | "
    "<a href=\"/debug/extensionz\">extensionz</a> | <a href=\"/debug/featurez\">featurez</a> | "
    "<a href=\"/debug/tracez\">tracez</a></p>";

std::string servicez(const HostDescription& d, bool healthy) {
  std::string body = kLinks;
  body += "<h2>Build info</h2><table><tr><th>Command</th><td>proflow</td></tr><tr><th>Version</th><td>" PROFLOW_VERSION
          "</td></tr></table>";
  body += "<h2>Runtime info</h2><table>";
  if (d.started != std::chrono::system_clock::time_point{}) {
    body += "<tr><th>StartTimestamp</th><td>" + utc(d.started) + "</td></tr>";
    body += "<tr><th>Uptime</th><td>" + config::Duration(std::chrono::system_clock::now() - d.started).str() +
            "</td></tr>";
  }
  body += std::string("<tr><th>Health</th><td>") + (healthy ? "every pipeline runs" : "not healthy") + "</td></tr>";
  body += "<tr><th>Pipelines</th><td>" + std::to_string(d.pipelines.size()) + "</td></tr>";
  body += "<tr><th>Extensions</th><td>" + std::to_string(d.extensions.size()) + "</td></tr></table>";
  return page("Service", body);
}

std::string pipelinez(const HostDescription& d) {
  std::string body = kLinks;
  body += "<table><tr><th>Pipeline</th><th>Receivers</th><th>Processors</th><th>Exporters</th></tr>";
  for (const auto& p : d.pipelines)
    body += "<tr><td>" + escape(p.name) + "</td><td>" + list(p.receivers) + "</td><td>" + list(p.processors) +
            "</td><td>" + list(p.exporters) + "</td></tr>";
  body += "</table>";
  return page("Pipelines", body);
}

std::string extensionz(const HostDescription& d) {
  std::string body = kLinks;
  body += "<table><tr><th>Extension</th></tr>";
  for (const auto& e : d.extensions) body += "<tr><td>" + escape(e) + "</td></tr>";
  body += "</table>";
  return page("Extensions", body);
}

net::HttpResponse html(std::string body) { return {200, "text/html; charset=utf-8", std::move(body), {}, {}}; }

}  // namespace

ZPages::ZPages(const CreateSettings& settings, ZPagesConfig config) : settings_(settings), config_(std::move(config)) {}

ZPages::~ZPages() { shutdown(std::chrono::steady_clock::now()); }

Status ZPages::start(Host& host) {
  Host* h = &host;
  using Render = std::function<std::string()>;
  const std::pair<const char*, Render> pages[] = {
      {"/debug/servicez", [h] { return servicez(h->describe(), h->healthy()); }},
      {"/debug/pipelinez", [h] { return pipelinez(h->describe()); }},
      {"/debug/extensionz", [h] { return extensionz(h->describe()); }},
      {"/debug/featurez",
       [] {
         return page("Feature gates", std::string(kLinks) +
                                          "<p>proflow has no feature gates: every feature is set in the config.</p>");
       }},
      {"/debug/tracez",
       [] {
         return page("Traces", std::string(kLinks) +
                                   "<p>proflow records no spans of its own; the <code>self</code> receiver profiles "
                                   "the daemon instead, and the telemetry endpoint serves its metrics.</p>");
       }},
  };
  return startHttpEndpoint(settings_, host, config_.server, "zpages " + settings_.id.str(),
                           [&](net::HttpServer& server) {
                             for (const auto& [path, render] : pages)
                               server.route("GET", path, [render](net::HttpRequest&&, net::Responder respond) {
                                 respond(html(render()));
                               });
                           },
                           &http_);
}

void ZPages::shutdown(Deadline) {
  if (http_) http_->stop();
}

}  // namespace proflow::extensions::zpages
