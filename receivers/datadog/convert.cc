#include "receivers/datadog/convert.h"

#include <span>
#include <string>

#include "core/flat/flat_attributes.h"
#include "core/formats/jfr/flat_converter.h"
#include "core/formats/pprof/pprof_to_flat.h"
#include "receivers/datadog/links.h"
#include "receivers/datadog/tags.h"

namespace proflow::receivers::datadog {
namespace {

// pprof time_nanos inside 1970 means the profiler wrote none.
constexpr int64_t kFirstYearNs = 365LL * 86400 * 1'000'000'000;

bool endsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

bool notAProfile(std::string_view name) {
  for (std::string_view ext : {".json", ".trace", ".txt", ".log"})
    if (endsWith(name, ext)) return true;
  return false;
}

bool isJfr(std::string_view data) { return data.substr(0, 4) == std::string_view("FLR\0", 4); }

struct Target {
  const std::vector<std::pair<std::string, std::string>>& attributes;
  const Intake& intake;
  const ConvertOptions& options;
  flat::Batch* out;
  int pprof_resource = -1;  // resource the pprof attachments share once the first made it
};

Status withName(const IntakeAttachment& a, const Status& s) {
  return Status(s.code(), "attachment '" + a.name + "': " + s.message());
}

// Upload window on the profiles of the scope just appended, where the profile has none.
void fixTimes(const Intake& in, flat::Batch* out, flat::Range profiles) {
  for (uint32_t i = profiles.begin; i < profiles.end(); ++i) {
    flat::Profile& p = out->profiles[i];
    if (static_cast<int64_t>(p.time_unix_nano) < kFirstYearNs && in.start_ns > 0)
      p.time_unix_nano = static_cast<uint64_t>(in.start_ns);
    if (p.duration_nano == 0 && in.end_ns > in.start_ns) p.duration_nano = static_cast<uint64_t>(in.end_ns - in.start_ns);
  }
}

flat::Range lastScope(const flat::Batch& b, uint32_t resource) {
  const uint32_t s = b.resources[resource].last_scope;
  return s == flat::kNone ? flat::Range{} : b.scopes[s].profiles;
}

Status convertJfr(Target& t, const IntakeAttachment& a, std::string_view bytes, size_t held) {
  jfr::ConvertOptions jo;
  jo.merge_generated_names = t.options.merge_generated_names;
  if (t.options.reserve_memory)
    jo.reserve_memory = [&t, held](size_t conversion) { return t.options.reserve_memory(held + conversion); };
  const auto span = std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  const jfr::ConvertResult r = jfr::convertToFlat(span, jo, t.out);
  if (!r.refused.isOk()) return withName(a, r.refused);
  if (!r.ok) return withName(a, Status::invalid("JFR: " + r.error.toString()));
  if (r.chunks == 0 || t.out->resources.empty()) return withName(a, Status::invalid("JFR: no chunk in the input"));
  const auto r_index = static_cast<uint32_t>(t.out->resources.size() - 1);
  for (const auto& [k, v] : t.attributes) flat::addResourceAttribute(*t.out, r_index, k, v, false);
  flat::Scope& scope = t.out->scopes[t.out->resources[r_index].last_scope];
  scope.present = true;
  scope.name = t.out->addBytes(kScopeName);
  fixTimes(t.intake, t.out, scope.profiles);
  return Status::ok();
}

Status convertPprof(Target& t, const IntakeAttachment& a, std::string_view bytes, size_t held, ConvertStats* stats) {
  pprof::PprofToOtlpOptions o;
  o.scope_name = std::string(kScopeName);
  o.resource_index = t.pprof_resource;
  if (t.pprof_resource < 0) o.resource_attributes = t.attributes;
  if (t.options.reserve_memory)
    o.reserve_memory = [&t, held](size_t conversion) { return t.options.reserve_memory(held + conversion); };
  pprof::DecodeOptions d;
  d.limits = t.options.limits;
  if (Status s = pprof::pprofBytesToFlat(bytes, o, t.out, d); !s.isOk()) return withName(a, s);
  if (t.pprof_resource < 0) t.pprof_resource = static_cast<int>(t.out->resources.size() - 1);
  const flat::Range profiles = lastScope(*t.out, static_cast<uint32_t>(t.pprof_resource));
  fixTimes(t.intake, t.out, profiles);
  stats->derived_trace_ids += deriveTraceIds(t.out, profiles);
  return Status::ok();
}

}  // namespace

Status convertIntake(const Intake& intake, const Tags& header_tags, const ConvertOptions& options, flat::Batch* out,
                     ConvertStats* stats) {
  ConvertStats local;
  if (!stats) stats = &local;
  const auto attributes = resourceAttributes(intake.tags, header_tags, intake.family);
  Target t{attributes, intake, options, out};
  for (const IntakeAttachment& a : intake.attachments) {
    if (notAProfile(a.name)) {
      ++stats->skipped;
      continue;
    }
    std::string storage;
    std::string_view bytes;
    if (Status s = compression::inflateOrView(a.data, options.limits, &storage, &bytes); !s.isOk())
      return withName(a, s);
    if (bytes.empty()) return withName(a, Status::invalid("empty attachment"));
    // What this upload holds beside its body: the batch so far and this attachment inflated.
    const size_t held = out->memoryBytes() + storage.size();
    if (options.reserve_memory)
      if (Status s = options.reserve_memory(held); !s.isOk()) return s;
    Status s = isJfr(bytes) ? convertJfr(t, a, bytes, held) : convertPprof(t, a, bytes, held, stats);
    if (!s.isOk()) return s;
    ++stats->attachments;
  }
  if (stats->attachments == 0) return Status::invalid("the upload has no profile attachment (pprof or JFR)");
  return Status::ok();
}

}  // namespace proflow::receivers::datadog
