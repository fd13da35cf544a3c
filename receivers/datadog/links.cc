#include "receivers/datadog/links.h"

#include <map>
#include <optional>
#include <string>

#include "core/flat/flat_attributes.h"
#include "core/flat/flat_merge.h"
#include "core/formats/pprof/pprof_ids.h"

namespace proflow::receivers::datadog {
namespace {

bool allZero(std::string_view s) { return s.find_first_not_of('\0') == std::string_view::npos; }

// The 8 id bytes of the sample's `local root span id` attribute, nullopt when absent or unparseable.
std::optional<std::string> rootSpanId(const flat::Batch& b, flat::Range attributes) {
  for (uint32_t i = attributes.begin; i < attributes.end(); ++i) {
    const int32_t a = b.indices[i];
    if (a <= 0 || static_cast<size_t>(a) >= b.attributes.size()) continue;
    const flat::Attribute& attr = b.attributes[static_cast<size_t>(a)];
    if (b.string(attr.key_strindex) != "local root span id") continue;
    const auto text = flat::scalarText(b, attr.value);
    if (!text) return std::nullopt;
    const auto id = pprof::parseSpanId(*text);
    if (!id) return std::nullopt;
    return std::string(id->view());
  }
  return std::nullopt;
}

}  // namespace

size_t deriveTraceIds(flat::Batch* b, flat::Range profiles) {
  std::optional<flat::DictionaryIndex> dict;  // built only when a link needs a trace id
  std::map<std::pair<int32_t, std::string>, int32_t> done;  // (old link, root id) -> new link
  size_t derived = 0;
  for (uint32_t p = profiles.begin; p < profiles.end(); ++p) {
    const flat::Range rows = b->profiles[p].samples;
    for (uint32_t r = rows.begin; r < rows.end(); ++r) {
      const int32_t link = b->samples.link_index[r];
      if (link <= 0 || static_cast<size_t>(link) >= b->links.size()) continue;
      const flat::Link& l = b->links[static_cast<size_t>(link)];
      const std::string_view trace = b->view(l.trace_id);
      if (trace.size() == 16 && !allZero(trace)) continue;
      const std::string span(b->view(l.span_id));
      const std::string root = rootSpanId(*b, b->samples.attributes[r]).value_or(span);
      if (root.size() != 8 || allZero(root)) continue;
      auto [it, fresh] = done.try_emplace({link, root}, 0);
      if (fresh) {
        if (!dict) dict.emplace(b);
        it->second = dict->link(std::string(8, '\0') + root, span);
      }
      b->samples.link_index[r] = it->second;
      ++derived;
    }
  }
  return derived;
}

}  // namespace proflow::receivers::datadog
