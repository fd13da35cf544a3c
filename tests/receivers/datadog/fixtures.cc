#include "tests/receivers/datadog/fixtures.h"

#include <fstream>
#include <iterator>

#include "core/compression/compression.h"

namespace proflow::receivers::datadog::testing {

std::string contentType() { return std::string("multipart/form-data; boundary=") + kBoundary; }

std::string multipart(const std::vector<Part>& parts) {
  std::string body;
  for (const Part& p : parts) {
    body += std::string("--") + kBoundary + "\r\nContent-Disposition: form-data; name=\"" + p.name + "\"";
    if (!p.filename.empty()) body += "; filename=\"" + p.filename + "\"";
    body += "\r\n";
    if (!p.content_type.empty()) body += "Content-Type: " + p.content_type + "\r\n";
    body += "\r\n" + p.data + "\r\n";
  }
  return body + "--" + kBoundary + "--\r\n";
}

pprof::Profile ddProfile(const std::vector<std::pair<std::string, std::string>>& types, bool string_labels,
                         int64_t time_ns) {
  pprof::Profile p;
  auto str = [&](const std::string& s) {
    for (int i = 0; i < p.string_table_size(); ++i)
      if (p.string_table(i) == s) return static_cast<int64_t>(i);
    p.add_string_table(s);
    return static_cast<int64_t>(p.string_table_size() - 1);
  };
  str("");
  for (const auto& [type, unit] : types) {
    auto* st = p.add_sample_type();
    st->set_type(str(type));
    st->set_unit(str(unit));
  }
  const char* names[] = {"main.main", "main.work", "main.burn"};
  for (uint64_t i = 1; i <= 3; ++i) {
    auto* f = p.add_function();
    f->set_id(i);
    f->set_name(str(names[i - 1]));
    f->set_filename(str("/app/main.go"));
    auto* l = p.add_location();
    l->set_id(i);
    auto* line = l->add_line();
    line->set_function_id(i);
    line->set_line(static_cast<int64_t>(10 * i));
  }
  auto label = [&](perftools::profiles::Sample* s, const std::string& key, int64_t id) {
    auto* l = s->add_label();
    l->set_key(str(key));
    if (string_labels) l->set_str(str(std::to_string(id)));
    else l->set_num(id);
  };
  const std::vector<std::vector<uint64_t>> stacks = {{3, 2, 1}, {2, 1}, {1}};
  const int64_t span_ids[] = {1234, 99, 0};
  for (size_t i = 0; i < stacks.size(); ++i) {
    auto* s = p.add_sample();
    for (uint64_t loc : stacks[i]) s->add_location_id(loc);
    for (size_t t = 0; t < types.size(); ++t) s->add_value(static_cast<int64_t>(100 * (i + 1) + t));
    if (span_ids[i] == 0) continue;
    label(s, "span id", span_ids[i]);
    label(s, "local root span id", 5678);
    auto* ep = s->add_label();
    ep->set_key(str("trace endpoint"));
    ep->set_str(str("GET /work"));
  }
  p.set_time_nanos(time_ns);
  p.set_duration_nanos(time_ns ? 60'000'000'000 : 0);
  return p;
}

std::string serialize(const pprof::Profile& p) { return p.SerializeAsString(); }

std::string gzip(const std::string& raw) {
  std::string out;
  (void)compression::compress(compression::Codec::kGzip, raw, out);
  return out;
}

std::string zstd(const std::string& raw) {
  std::string out;
  (void)compression::compress(compression::Codec::kZstd, raw, out);
  return out;
}

std::string eventJson(const std::vector<std::string>& attachments, const std::string& tags, const std::string& family) {
  std::string list;
  for (const auto& a : attachments) list += (list.empty() ? "\"" : ",\"") + a + "\"";
  return "{\"version\":\"4\",\"family\":\"" + family + "\",\"start\":\"2025-03-01T10:00:00.5Z\","
         "\"end\":\"2025-03-01T10:01:00.5Z\",\"attachments\":[" + list + "],\"tags_profiler\":\"" + tags +
         "\",\"endpoint_counts\":{\"GET /work\":3},\"info\":{\"profiler\":{\"activation\":\"manual\"}}}";
}

std::string jfrRecording() {
  std::ifstream in(std::string(PROFLOW_SOURCE_DIR) + "/tests/fuzz/corpus/jfr/async_v1.jfr", std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace proflow::receivers::datadog::testing
