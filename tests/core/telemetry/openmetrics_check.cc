#include "tests/core/telemetry/openmetrics_check.h"

#include <cstdlib>
#include <map>
#include <set>
#include <sstream>

#include "tests/support/daemon.h"
#include "tests/support/temp_dir.h"

namespace proflow::testing {
namespace {

bool isNameStart(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':'; }
bool isNameChar(char c) { return isNameStart(c) || (c >= '0' && c <= '9'); }

bool validMetricName(const std::string& s) {
  if (s.empty() || !isNameStart(s[0])) return false;
  for (char c : s)
    if (!isNameChar(c)) return false;
  return true;
}

bool validLabelName(const std::string& s) {
  if (s.empty() || !isNameStart(s[0]) || s[0] == ':') return false;
  for (char c : s)
    if (!isNameChar(c) || c == ':') return false;
  return true;
}

// realnumber of the OpenMetrics ABNF, or NaN / +Inf / -Inf.
bool parseNumber(const std::string& s, double* out) {
  if (s == "NaN" || s == "+Inf" || s == "-Inf" || s == "Inf" || s == "+inf" || s == "-inf") {
    *out = 0;
    return true;
  }
  size_t i = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
  size_t digits = 0;
  while (i < s.size() && isdigit(static_cast<unsigned char>(s[i]))) ++i, ++digits;
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && isdigit(static_cast<unsigned char>(s[i]))) ++i, ++digits;
  }
  if (digits == 0) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    size_t exp = 0;
    while (i < s.size() && isdigit(static_cast<unsigned char>(s[i]))) ++i, ++exp;
    if (exp == 0) return false;
  }
  if (i != s.size()) return false;
  *out = std::strtod(s.c_str(), nullptr);
  return true;
}

size_t codePoints(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s)
    if ((c & 0xC0) != 0x80) ++n;
  return n;
}

// Reads `{name="value",...}` at s[*i]; fills `chars` with the code points of names and values.
bool parseLabels(const std::string& s, size_t* i, std::string* error, size_t* chars) {
  if (*i >= s.size() || s[*i] != '{') return (*error = "expected '{'"), false;
  ++*i;
  std::set<std::string> seen;
  *chars = 0;
  if (*i < s.size() && s[*i] == '}') return ++*i, true;
  while (true) {
    size_t start = *i;
    while (*i < s.size() && s[*i] != '=') ++*i;
    std::string name = s.substr(start, *i - start);
    if (!validLabelName(name)) return (*error = "bad label name '" + name + "'"), false;
    if (!seen.insert(name).second) return (*error = "label '" + name + "' twice"), false;
    if (*i + 1 >= s.size() || s[*i + 1] != '"') return (*error = "expected '=\"'"), false;
    *i += 2;
    std::string value;
    while (true) {
      if (*i >= s.size()) return (*error = "unterminated label value"), false;
      char c = s[*i];
      if (c == '"') break;
      if (c == '\\') {
        if (*i + 1 >= s.size()) return (*error = "dangling escape"), false;
        char e = s[*i + 1];
        if (e != '\\' && e != '"' && e != 'n') return (*error = std::string("bad escape \\") + e), false;
        value += e;
        *i += 2;
        continue;
      }
      if (c == '\n') return (*error = "raw newline in label value"), false;
      value += c;
      ++*i;
    }
    ++*i;  // closing quote
    *chars += codePoints(name) + codePoints(value);
    if (*i >= s.size()) return (*error = "unterminated labels"), false;
    if (s[*i] == '}') return ++*i, true;
    if (s[*i] != ',') return (*error = "expected ',' or '}'"), false;
    ++*i;
    if (*i < s.size() && s[*i] == '}') return (*error = "trailing comma"), false;
  }
}

bool helpTextOk(const std::string& text) {
  for (size_t i = 0; i < text.size(); ++i)
    if (text[i] == '\\') {
      if (i + 1 >= text.size() || (text[i + 1] != '\\' && text[i + 1] != 'n' && text[i + 1] != '"')) return false;
      ++i;
    }
  return true;
}

struct Family {
  std::string type;
  bool unit = false, help = false, has_samples = false;
};

}  // namespace

OpenMetricsCheck checkOpenMetrics(const std::string& text) {
  OpenMetricsCheck r;
  auto fail = [&](size_t line, const std::string& what) { r.errors.push_back("line " + std::to_string(line) + ": " + what); };
  if (text.empty() || text.back() != '\n') fail(0, "the text does not end with a newline");
  std::vector<std::string> lines;
  std::stringstream in(text);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  if (lines.empty() || lines.back() != "# EOF") fail(lines.size(), "the last line is not '# EOF'");
  std::map<std::string, Family> families;
  std::string current;  // the family whose block is open
  std::set<std::string> series;
  std::set<std::string> names;  // taken by a family
  for (size_t n = 0; n < lines.size(); ++n) {
    const std::string& l = lines[n];
    const size_t ln = n + 1;
    if (l == "# EOF") {
      if (n + 1 != lines.size()) fail(ln, "'# EOF' before the end");
      continue;
    }
    if (l.empty()) {
      fail(ln, "empty line");
      continue;
    }
    if (l[0] == '#') {
      std::istringstream words(l);
      std::string hash, kind, name;
      words >> hash >> kind >> name;
      if (hash != "#" || (kind != "TYPE" && kind != "UNIT" && kind != "HELP")) {
        fail(ln, "a comment other than TYPE, UNIT, HELP or EOF: " + l);
        continue;
      }
      if (!validMetricName(name)) fail(ln, "bad family name '" + name + "'");
      const std::string prefix = "# " + kind + " " + name;
      const std::string rest = l.size() > prefix.size() + 1 ? l.substr(prefix.size() + 1) : "";
      if (l.compare(0, prefix.size(), prefix) != 0 || (l.size() > prefix.size() && l[prefix.size()] != ' '))
        fail(ln, "malformed metadata line");
      Family& f = families[name];
      if (name != current) {
        if (f.has_samples || !f.type.empty() || f.unit || f.help) fail(ln, "family '" + name + "' appears twice");
        current = name;
        ++r.families;
      }
      if (f.has_samples) fail(ln, kind + " after samples of '" + name + "'");
      if (kind == "TYPE") {
        if (!f.type.empty()) fail(ln, "second TYPE for '" + name + "'");
        if (rest != "counter" && rest != "gauge") fail(ln, "type '" + rest + "' (only counter and gauge expected)");
        f.type = rest;
        // A family owns its name and, for a counter, its sample names: no other family may use them.
        std::vector<std::string> owned = {name};
        if (rest == "counter") owned.insert(owned.end(), {name + "_total", name + "_created"});
        for (const auto& o : owned)
          if (!names.insert(o).second) fail(ln, "family '" + name + "' clashes with another on '" + o + "'");
      } else if (kind == "UNIT") {
        if (f.unit) fail(ln, "second UNIT for '" + name + "'");
        f.unit = true;
        const std::string suffix = "_" + rest;
        if (rest.empty() || name.size() < suffix.size() || name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0)
          fail(ln, "UNIT '" + rest + "' is not the suffix of '" + name + "'");
      } else {
        if (f.help) fail(ln, "second HELP for '" + name + "'");
        f.help = true;
        if (!helpTextOk(rest)) fail(ln, "bad escape in HELP");
      }
      continue;
    }
    // A sample: name{labels} value [timestamp] [# {labels} value [timestamp]]
    size_t i = 0;
    while (i < l.size() && isNameChar(l[i])) ++i;
    const std::string name = l.substr(0, i);
    if (!validMetricName(name)) {
      fail(ln, "bad sample name in: " + l);
      continue;
    }
    std::string labels;
    if (i < l.size() && l[i] == '{') {
      size_t start = i, chars = 0;
      std::string err;
      if (!parseLabels(l, &i, &err, &chars)) {
        fail(ln, err + " in: " + l);
        continue;
      }
      labels = l.substr(start, i - start);
    }
    auto it = families.find(current);
    if (it == families.end() || it->second.type.empty()) {
      fail(ln, "sample '" + name + "' outside a typed family");
      continue;
    }
    Family& f = it->second;
    f.has_samples = true;
    const bool counter = f.type == "counter";
    if (counter ? (name != current + "_total" && name != current + "_created") : name != current)
      fail(ln, "sample '" + name + "' does not belong to " + f.type + " family '" + current + "'");
    if (!series.insert(name + labels).second) fail(ln, "duplicate series " + name + labels);
    ++r.samples;
    std::string rest = l.substr(i);
    std::string exemplar;
    if (size_t hash = rest.find(" # "); hash != std::string::npos) {
      exemplar = rest.substr(hash + 3);
      rest = rest.substr(0, hash);
    }
    std::istringstream words(rest);
    std::string value, ts, extra;
    if (rest.empty() || rest[0] != ' ') fail(ln, "no space before the value");
    words >> value >> ts >> extra;
    double v = 0;
    if (!parseNumber(value, &v)) fail(ln, "bad value '" + value + "'");
    else if (counter && (value == "NaN" || v < 0 || value[0] == '-')) fail(ln, "a counter's value must be >= 0");
    if (!ts.empty() && !parseNumber(ts, &v)) fail(ln, "bad timestamp '" + ts + "'");
    if (!extra.empty()) fail(ln, "text after the timestamp");
    if (exemplar.empty()) continue;
    if (!counter || name != current + "_total") fail(ln, "exemplar on a sample other than a counter's _total");
    size_t j = 0, chars = 0;
    std::string err;
    if (!parseLabels(exemplar, &j, &err, &chars)) {
      fail(ln, "exemplar: " + err);
      continue;
    }
    if (chars > 128) fail(ln, "exemplar labels of " + std::to_string(chars) + " code points (max 128)");
    ParsedExemplar e{name + labels, exemplar.substr(1, j - 2), 0};
    std::istringstream ew(exemplar.substr(j));
    std::string ev, ets, eextra;
    ew >> ev >> ets >> eextra;
    if (exemplar.size() <= j || exemplar[j] != ' ' || !parseNumber(ev, &e.value)) fail(ln, "bad exemplar value");
    double t = 0;
    if (!ets.empty() && !parseNumber(ets, &t)) fail(ln, "bad exemplar timestamp '" + ets + "'");
    if (!eextra.empty()) fail(ln, "text after the exemplar");
    r.exemplars.push_back(std::move(e));
  }
  for (const auto& [name, f] : families)
    if (f.type.empty()) fail(0, "family '" + name + "' has no TYPE");
  return r;
}

int parseWithPrometheusClient(const std::string& text, std::string* output) {
  static const char* kScript = R"(import sys
from prometheus_client.openmetrics.parser import text_string_to_metric_families
text = open(sys.argv[1], encoding='utf-8').read()
families = list(text_string_to_metric_families(text))
n = 0
for f in families:
    for s in f.samples:
        n += 1
        if s.exemplar:
            print(s.name, s.exemplar.labels.get('trace_id', ''), s.exemplar.labels.get('span_id', ''), repr(s.exemplar.value))
print('families=%d samples=%d' % (len(families), n))
)";
  TempDir dir;
  const std::string file = dir.write("metrics.txt", text);
  return runCommand({"/usr/bin/python3", "-c", kScript, file}, output);
}

int promtoolCheckMetrics(const std::string& text, std::string* output) {
  TempDir dir;
  const std::string file = dir.write("metrics.txt", text);
  return runCommand({"/bin/sh", "-c", "promtool check metrics < '" + file + "'"}, output);
}

}  // namespace proflow::testing
