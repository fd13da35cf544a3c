#include "exporters/datadog/upload.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <random>
#include <set>

#include "core/flat/flat_attributes.h"
#include "core/formats/pprof/flat_to_pprof.h"
#include "core/util/ascii.h"
#include "core/util/json/json_writer.h"
#include "core/util/prometheus_labels.h"
#include "core/util/pyroscope_metric.h"

namespace proflow::exporters::datadog {
namespace {

// Datadog's family names from OTel runtime names (process.runtime.name, telemetry.sdk.language).
std::string familyOf(std::string_view runtime_name) {
  const std::string runtime = toLowerAscii(runtime_name);
  auto has = [&](const char* s) { return runtime.find(s) != std::string::npos; };
  if (runtime == "go" || runtime == "gc") return "go";
  if (has("java") || has("openjdk") || has("jvm")) return "java";
  if (has("python")) return "python";
  if (has("node") || runtime == "javascript") return "nodejs";
  if (has("ruby")) return "ruby";
  if (has("php")) return "php";
  if (has("dotnet") || has(".net")) return "dotnet";
  return {};
}

// The resource's runtime as a Datadog family; "native" when nothing says.
std::string resourceFamily(const flat::Batch& b, const flat::Resource& r) {
  std::string family = familyOf(flat::resourceAttribute(b, r, "process.runtime.name").value_or(""));
  if (family.empty()) family = familyOf(flat::resourceAttribute(b, r, "telemetry.sdk.language").value_or(""));
  return family.empty() ? "native" : family;
}

std::string attachmentName(const std::string& family, const std::string& metric, const std::string& type) {
  if (family != "go") return "profile.pprof";
  if (metric == "process_cpu") return "cpu.pprof";
  if (metric == "memory") return "delta-heap.pprof";
  if (metric == "mutex") return "delta-mutex.pprof";
  if (metric == "block") return "delta-block.pprof";
  if (metric == "goroutines") return "goroutines.pprof";
  return sanitizeLabelName(type) + ".pprof";
}

std::string rfc3339(uint64_t ns) {
  std::time_t secs = static_cast<std::time_t>(ns / 1'000'000'000ULL);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[64];
  size_t n = std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
  std::snprintf(buf + n, sizeof buf - n, ".%09lluZ", static_cast<unsigned long long>(ns % 1'000'000'000ULL));
  return buf;
}

std::string tagValue(std::string v) {
  std::replace(v.begin(), v.end(), ',', '_');  // tags_profiler is comma-joined
  return v;
}

struct Pending {
  std::set<std::string> names;
  std::vector<Attachment> attachments;
  uint64_t start = UINT64_MAX, end = 0;
};

}  // namespace

Status buildUploads(const flat::Batch& batch, const std::map<std::string, std::string>& extra_tags,
                    std::vector<Upload>* out) {
  out->clear();
  std::vector<pprof::EncodedPprof> encoded;
  if (Status s = pprof::flatToPprofBytes(batch, &encoded); !s.isOk()) return s;
  std::map<int, std::vector<Pending>> by_resource;
  for (auto& e : encoded) {
    const flat::Resource& rp = batch.resources.at(static_cast<size_t>(e.resource_index));
    const std::string family = resourceFamily(batch, rp);
    const std::vector<uint32_t> sources = pprof::sourceProfiles(batch, e.resource_index, e.scope_index, e.profile_indices);
    const flat::Profile& first = batch.profiles[sources.at(0)];
    const std::string type(batch.string(first.sample_type.type_strindex));
    std::string metric = flat::profileAttribute(batch, first, "pyroscope.profile.name").value_or("");
    if (metric.empty()) metric = pyroscopeMetricFamily(type);
    const std::string name = attachmentName(family, metric, type);
    auto& pending = by_resource[e.resource_index];
    auto slot = std::find_if(pending.begin(), pending.end(), [&](const Pending& p) { return !p.names.count(name); });
    if (slot == pending.end()) slot = pending.insert(pending.end(), Pending{});
    slot->names.insert(name);
    slot->attachments.push_back(Attachment{name, std::move(e.data)});
    for (uint32_t i : sources) {
      const flat::Profile& p = batch.profiles[i];
      if (p.time_unix_nano == 0) continue;
      slot->start = std::min<uint64_t>(slot->start, p.time_unix_nano);
      slot->end = std::max<uint64_t>(slot->end, p.time_unix_nano + p.duration_nano);
    }
  }
  for (auto& [r, pendings] : by_resource) {
    const flat::Resource& resource = batch.resources[static_cast<size_t>(r)];
    const std::string family = resourceFamily(batch, resource);
    auto attr = [&](std::string_view key) { return flat::resourceAttribute(batch, resource, key); };
    std::vector<std::string> tags;
    auto tag = [&](const char* key, std::optional<std::string> v) {
      if (v && !v->empty()) tags.push_back(std::string(key) + ":" + tagValue(*v));
    };
    tag("service", attr("service.name"));
    auto env = attr("deployment.environment.name");
    tag("env", env ? env : attr("deployment.environment"));
    tag("version", attr("service.version"));
    tag("host", attr("host.name"));
    tag("runtime", family);
    for (const auto& [k, v] : extra_tags) tags.push_back(k + ":" + tagValue(v));
    std::string joined;
    for (const auto& t : tags) joined += (joined.empty() ? "" : ",") + t;
    for (auto& p : pendings) {
      const uint64_t now = static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                                     std::chrono::system_clock::now().time_since_epoch())
                                                     .count());
      if (p.start == UINT64_MAX) p.start = p.end = now;
      Upload u;
      json::Writer event(&u.event_json);
      event.beginObject()
          .key("version").string("4")
          .key("family").string(family)
          .key("start").string(rfc3339(p.start))
          .key("end").string(rfc3339(p.end))
          .key("attachments").beginArray();
      for (const auto& a : p.attachments) event.string(a.name);
      event.endArray().key("tags_profiler").string(joined).endObject();
      u.attachments = std::move(p.attachments);
      out->push_back(std::move(u));
    }
  }
  return Status::ok();
}

std::string encodeMultipart(const Upload& upload, std::string* content_type) {
  std::mt19937_64 rng(std::random_device{}());
  char boundary[40];
  std::snprintf(boundary, sizeof boundary, "proflow%016llx%08llx", static_cast<unsigned long long>(rng()),
                static_cast<unsigned long long>(rng() & 0xffffffffULL));
  *content_type = std::string("multipart/form-data; boundary=") + boundary;
  std::string body;
  auto part = [&](const std::string& name, const std::string& filename, const char* type, const std::string& data) {
    body += std::string("--") + boundary + "\r\n";
    body += "Content-Disposition: form-data; name=\"" + name + "\"; filename=\"" + filename + "\"\r\n";
    body += std::string("Content-Type: ") + type + "\r\n\r\n";
    body += data;
    body += "\r\n";
  };
  part("event", "event.json", "application/json", upload.event_json);
  for (const auto& a : upload.attachments) part(a.name, a.name, "application/octet-stream", a.data);
  body += std::string("--") + boundary + "--\r\n";
  return body;
}

}  // namespace proflow::exporters::datadog
