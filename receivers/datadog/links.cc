#include "receivers/datadog/links.h"

#include <charconv>
#include <map>
#include <optional>
#include <string>
#include <tuple>

#include "core/flat/flat_attributes.h"
#include "core/flat/flat_merge.h"
#include "core/formats/pprof/pprof_ids.h"

namespace proflow::receivers::datadog {
namespace {

bool allZero(std::string_view s) { return s.find_first_not_of('\0') == std::string_view::npos; }

std::string bigEndian(uint64_t v) {
  std::string out(8, '\0');
  for (int i = 7; i >= 0; --i, v >>= 8) out[static_cast<size_t>(i)] = static_cast<char>(v & 0xff);
  return out;
}

// A Datadog id label: numeric (the int64 bit pattern) or a decimal string. Datadog writes decimals
// only, so a 16-digit id is decimal here (the generic parser would take it for hex); anything else
// goes through the generic parser. nullopt when absent, unparseable or zero.
std::optional<std::string> datadogId(const flat::Batch& b, const flat::Value& v) {
  if (v.kind == flat::ValueKind::kInt) return v.scalar == 0 ? std::nullopt : std::optional(bigEndian(static_cast<uint64_t>(v.scalar)));
  const auto text = flat::scalarText(b, v);
  if (!text || text->empty()) return std::nullopt;
  uint64_t n = 0;
  const auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), n, 10);
  if (ec == std::errc() && end == text->data() + text->size()) return n == 0 ? std::nullopt : std::optional(bigEndian(n));
  const auto id = pprof::parseSpanId(*text);
  return id ? std::optional(std::string(id->view())) : std::nullopt;
}

struct SampleIds {
  std::optional<std::string> span, root;
};

SampleIds idsOf(const flat::Batch& b, flat::Range attributes) {
  SampleIds ids;
  for (uint32_t i = attributes.begin; i < attributes.end(); ++i) {
    const int32_t a = b.indices[i];
    if (a <= 0 || static_cast<size_t>(a) >= b.attributes.size()) continue;
    const flat::Attribute& attr = b.attributes[static_cast<size_t>(a)];
    const std::string_view key = b.string(attr.key_strindex);
    if (key == "span id") ids.span = datadogId(b, attr.value);
    else if (key == "local root span id") ids.root = datadogId(b, attr.value);
  }
  return ids;
}

}  // namespace

size_t deriveTraceIds(flat::Batch* b, flat::Range profiles) {
  std::optional<flat::DictionaryIndex> dict;  // built only when a link changes
  std::map<std::tuple<int32_t, std::string, std::string>, int32_t> done;  // (old link, span, trace) -> new link
  size_t derived = 0;
  for (uint32_t p = profiles.begin; p < profiles.end(); ++p) {
    const flat::Range rows = b->profiles[p].samples;
    for (uint32_t r = rows.begin; r < rows.end(); ++r) {
      const int32_t link = b->samples.link_index[r];
      if (link <= 0 || static_cast<size_t>(link) >= b->links.size()) continue;
      const flat::Link& l = b->links[static_cast<size_t>(link)];
      const std::string old_trace(b->view(l.trace_id)), old_span(b->view(l.span_id));
      const SampleIds ids = idsOf(*b, b->samples.attributes[r]);
      const std::string span = ids.span ? *ids.span : ids.root ? *ids.root : old_span;
      const bool has_trace = old_trace.size() == 16 && !allZero(old_trace);
      std::string trace = old_trace;
      if (!has_trace) {
        const std::string& root = ids.root ? *ids.root : span;
        if (root.size() != 8 || allZero(root)) continue;
        trace = std::string(8, '\0') + root;
        ++derived;
      }
      if (span == old_span && trace == old_trace) continue;
      auto [it, fresh] = done.try_emplace({link, span, trace}, 0);
      if (fresh) {
        if (!dict) dict.emplace(b);
        it->second = dict->link(trace, span);
      }
      b->samples.link_index[r] = it->second;
    }
  }
  return derived;
}

}  // namespace proflow::receivers::datadog
