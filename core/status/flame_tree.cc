#include "core/status/flame_tree.h"

#include <algorithm>
#include <unordered_map>

#include "core/compression/compression.h"
#include "core/status/json_text.h"
#include "core/util/json/json_writer.h"
#include "perftools/profiles/profile.pb.h"

namespace proflow::status {

int64_t FlameTree::self(uint32_t i) const {
  int64_t v = nodes[i].value;
  for (uint32_t c : nodes[i].children) v -= nodes[c].value;
  return std::max<int64_t>(0, v);
}

std::string flameTreeJson(const FlameTree& tree, const std::string& window, const std::string& compare,
                          double min_share) {
  std::string out = "{\"service\":";
  json::appendString(out, tree.service);
  out += ",\"type\":";
  json::appendString(out, tree.type);
  out += ",\"window\":";
  json::appendString(out, window);
  out += ",\"window_seconds\":";
  appendJsonNumber(out, tree.seconds);
  out += ",\"samples\":";
  appendJsonNumber(out, static_cast<double>(tree.samples));
  out += ",\"total\":";
  appendJsonNumber(out, static_cast<double>(tree.nodes[0].value));
  if (tree.has_base) {
    out += ",\"compare\":";
    json::appendString(out, compare);
    out += ",\"compare_seconds\":";
    appendJsonNumber(out, tree.base_seconds);
    out += ",\"compare_total\":";
    appendJsonNumber(out, tree.nodes[0].base);
  }
  out += ",\"root\":";
  const double min = std::max(static_cast<double>(tree.nodes[0].value), tree.nodes[0].base) * min_share;
  auto shown = [&](uint32_t i) { return static_cast<double>(tree.nodes[i].value) >= min || tree.nodes[i].base >= min; };
  // Depth-first without recursion (stacks can be thousands of frames deep): (node, next child).
  std::vector<std::pair<uint32_t, size_t>> path{{0, 0}};
  auto open = [&](uint32_t i) {
    out += "{\"n\":";
    json::appendString(out, tree.nodes[i].name);
    out += ",\"v\":";
    appendJsonNumber(out, static_cast<double>(tree.nodes[i].value));
    if (tree.has_base) {
      out += ",\"b\":";
      appendJsonNumber(out, std::round(tree.nodes[i].base * 1000) / 1000);
    }
    out += ",\"c\":[";
  };
  open(0);
  while (!path.empty()) {
    auto& [node, next] = path.back();
    const auto& children = tree.nodes[node].children;
    while (next < children.size() && !shown(children[next])) ++next;
    if (next == children.size()) {
      out += "]}";
      path.pop_back();
      continue;
    }
    const uint32_t child = children[next++];
    if (out.back() == '}') out += ',';
    open(child);
    path.emplace_back(child, 0);
  }
  out += "}";
  return out;
}

std::string flameTreePprof(const FlameTree& tree, int64_t time_unix_nano) {
  perftools::profiles::Profile p;
  std::unordered_map<std::string, int64_t> strings;
  auto str = [&](const std::string& s) {
    auto [it, added] = strings.emplace(s, p.string_table_size());
    if (added) p.add_string_table(s);
    return it->second;
  };
  str("");
  const auto slash = tree.type.rfind('/');
  auto* st = p.add_sample_type();
  st->set_type(str(slash == std::string::npos ? tree.type : tree.type.substr(0, slash)));
  st->set_unit(str(slash == std::string::npos ? "count" : tree.type.substr(slash + 1)));
  std::unordered_map<std::string, uint64_t> locations;  // one function and one location per name
  auto location = [&](const std::string& name) {
    auto [it, added] = locations.emplace(name, locations.size() + 1);
    if (added) {
      auto* f = p.add_function();
      f->set_id(it->second);
      f->set_name(str(name));
      f->set_system_name(f->name());
      auto* l = p.add_location();
      l->set_id(it->second);
      l->add_line()->set_function_id(it->second);
    }
    return it->second;
  };
  for (uint32_t i = 0; i < tree.nodes.size(); ++i) {
    const int64_t self = tree.self(i);
    if (self <= 0) continue;
    auto* s = p.add_sample();
    s->add_value(self);
    for (uint32_t n = i; n != 0; n = tree.nodes[n].parent) s->add_location_id(location(tree.nodes[n].name));
  }
  p.set_time_nanos(time_unix_nano);
  p.set_duration_nanos(static_cast<int64_t>(tree.seconds * 1e9));
  std::string raw = p.SerializeAsString(), out;
  if (!compression::compress(compression::Codec::kGzip, raw, out, 1).isOk()) return raw;  // pprof reads raw too
  return out;
}

}  // namespace proflow::status
