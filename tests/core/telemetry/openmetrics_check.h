// A strict reader of the OpenMetrics 1.0 text this project writes (counters and gauges, labels,
// exemplars), independent of the code under test: it reports every line that breaks the grammar
// or its rules (TYPE / UNIT / HELP once per family and before its samples, counter samples named
// <family>_total, exemplars only on counters and within 128 code points, no duplicate series,
// `# EOF` last). Also the real parsers on this machine: prometheus_client's OpenMetrics parser
// (python3-prometheus-client) and `promtool check metrics` (prometheus) for Prometheus text.
#pragma once

#include <string>
#include <vector>

namespace proflow::testing {

struct ParsedExemplar {
  std::string sample;  // the sample line's name and labels
  std::string labels;  // as written, without braces
  double value = 0;
};

struct OpenMetricsCheck {
  std::vector<std::string> errors;  // "line N: what"
  size_t families = 0, samples = 0;
  std::vector<ParsedExemplar> exemplars;
};

OpenMetricsCheck checkOpenMetrics(const std::string& text);

// Runs /usr/bin/python3 with prometheus_client's OpenMetrics parser over `text`. Returns its exit
// code; `output` gets one line per exemplar ("<sample name> <trace_id> <span_id> <value>") and
// then "families=N samples=M", or the parser's error.
int parseWithPrometheusClient(const std::string& text, std::string* output);

// `promtool check metrics` over `text` (Prometheus text format, with its lint rules). Returns its
// exit code; `output` gets what it printed.
int promtoolCheckMetrics(const std::string& text, std::string* output);

}  // namespace proflow::testing
