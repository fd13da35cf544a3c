// Rendering of the metrics registry: Prometheus text 0.0.4 and OpenMetrics text 1.0.0, and the
// choice between them from a scraper's Accept header.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

#include "core/telemetry/metrics.h"
#include "core/util/ascii.h"

namespace proflow::telemetry {
namespace {

constexpr std::string_view kTotal = "_total";

bool endsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

std::string formatNumber(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
  char buf[64];
  if (v == std::trunc(v) && std::fabs(v) < 9e15) {
    std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(v));
    return buf;
  }
  auto r = std::to_chars(buf, buf + sizeof buf, v);  // shortest text that reads back the same
  return std::string(buf, r.ptr);
}

// HELP text: Prometheus text escapes backslash and newline; OpenMetrics also the double quote.
std::string escapeHelp(std::string_view help, bool quote) {
  std::string out;
  for (char c : help) {
    if (c == '\\') out += "\\\\";
    else if (c == '\n') out += "\\n";
    else if (c == '"' && quote) out += "\\\"";
    else out += c;
  }
  return out;
}

void renderExemplar(const Exemplar& e, std::string& out) {
  out += " # ";
  out += e.labels.empty() ? "{}" : renderLabels(e.labels);
  out += ' ';
  out += formatNumber(e.value);
  if (e.timestamp) {
    char buf[48];
    std::snprintf(buf, sizeof buf, " %.3f", *e.timestamp);
    out += buf;
  }
}

void renderPrometheusFamily(const MetricFamily& f, std::string& out) {
  out += "# HELP " + f.name + " " + escapeHelp(f.help, false) + "\n";
  out += "# TYPE " + f.name + (f.type == MetricType::kCounter ? " counter\n" : " gauge\n");
  for (const auto& s : f.samples) out += f.name + renderLabels(s.labels) + " " + formatNumber(s.value) + "\n";
}

void renderOpenMetricsFamily(const MetricFamily& f, std::string& out) {
  const bool counter = f.type == MetricType::kCounter;
  // A counter family is named without `_total`; its samples carry it.
  std::string family = f.name;
  if (counter && endsWith(family, kTotal)) family.resize(family.size() - kTotal.size());
  const std::string sample = counter ? family + std::string(kTotal) : family;
  out += "# TYPE " + family + (counter ? " counter\n" : " gauge\n");
  if (!f.unit.empty() && endsWith(family, "_" + f.unit)) out += "# UNIT " + family + " " + f.unit + "\n";
  out += "# HELP " + family + " " + escapeHelp(f.help, true) + "\n";
  for (const auto& s : f.samples) {
    out += sample + renderLabels(s.labels) + " " + formatNumber(s.value);
    if (counter && s.exemplar) renderExemplar(*s.exemplar, out);
    out += '\n';
  }
}

}  // namespace

std::string renderFamilies(const std::vector<MetricFamily>& families, ExpositionFormat format) {
  std::string out;
  for (const auto& f : families) {
    if (format == ExpositionFormat::kOpenMetrics) renderOpenMetricsFamily(f, out);
    else renderPrometheusFamily(f, out);
  }
  if (format == ExpositionFormat::kOpenMetrics) out += "# EOF\n";
  return out;
}

std::string MetricsRegistry::render(ExpositionFormat format) const {
  return renderFamilies(snapshot(format == ExpositionFormat::kOpenMetrics), format);
}

ExpositionFormat negotiateExposition(std::string_view accept) {
  double openmetrics = 0, text = 0;
  while (!accept.empty()) {
    size_t comma = accept.find(',');
    std::string_view range = accept.substr(0, comma);
    accept = comma == std::string_view::npos ? std::string_view() : accept.substr(comma + 1);
    size_t semi = range.find(';');
    const std::string type = toLowerAscii(trim(range.substr(0, semi)));
    double q = 1;
    std::string version;
    while (semi != std::string_view::npos) {
      range = range.substr(semi + 1);
      semi = range.find(';');
      std::string_view param = trim(range.substr(0, semi));
      size_t eq = param.find('=');
      if (eq == std::string_view::npos) continue;
      const std::string key = toLowerAscii(trim(param.substr(0, eq)));
      std::string_view value = trim(param.substr(eq + 1));
      if (key == "q") {
        double parsed = 0;
        auto r = std::from_chars(value.data(), value.data() + value.size(), parsed);
        q = r.ec == std::errc() ? parsed : 0;
      } else if (key == "version") {
        version = std::string(value);
      }
    }
    if (type == "application/openmetrics-text") {
      if (version.empty() || version == "1.0.0" || version == "0.0.1") openmetrics = std::max(openmetrics, q);
    } else if (type == "text/plain" || type == "text/*" || type == "*/*") {
      text = std::max(text, q);
    }
  }
  return openmetrics > 0 && openmetrics >= text ? ExpositionFormat::kOpenMetrics : ExpositionFormat::kPrometheusText;
}

const char* expositionContentType(ExpositionFormat format) {
  return format == ExpositionFormat::kOpenMetrics ? "application/openmetrics-text; version=1.0.0; charset=utf-8"
                                                  : "text/plain; version=0.0.4; charset=utf-8";
}

}  // namespace proflow::telemetry
