#include "core/config/yaml_tree_builder.h"

namespace proflow::config {

YamlTreeBuilder::YamlTreeBuilder(const std::string& file, const YamlLimits& limits, const EnvLookup& env,
                                 ConfigErrors& errors, std::vector<std::string>& warnings)
    : file_(file), limits_(limits), env_(env), errors_(errors), warnings_(warnings) {}

SourceLocation YamlTreeBuilder::at(const YAML::Mark& mark) const {
  if (mark.is_null()) return {file_, 0, 0};
  return {file_, mark.line + 1, mark.column + 1};
}

void YamlTreeBuilder::fail(const YAML::Mark& mark, std::string message) {
  errors_.add("", at(mark), std::move(message));
  throw LimitExceeded{};
}

void YamlTreeBuilder::countNodes(size_t n, const YAML::Mark& mark) {
  nodes_ += n;
  if (nodes_ > limits_.max_nodes)
    fail(mark, "the document has more than " + std::to_string(limits_.max_nodes) +
                   " nodes (aliases counted at every use); refusing to read it");
}

void YamlTreeBuilder::OnAnchor(const YAML::Mark&, const std::string& name) { anchor_names_.push_back(name); }

void YamlTreeBuilder::OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) {
  countNodes(1, mark);
  ConfigNode n;
  n.location = at(mark);
  finish(std::move(n), anchor, 1);
}

void YamlTreeBuilder::OnScalar(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                               const std::string& value) {
  countNodes(1, mark);
  ConfigNode n;
  n.kind = ConfigNode::Kind::kScalar;
  n.location = at(mark);
  n.quoted = tag == "!";  // yaml-cpp's tag of a quoted scalar
  // Keys are taken as written; values get ${env:...} expanded.
  const bool is_key = !stack_.empty() && stack_.back().node.isMap() && !stack_.back().key;
  n.scalar = is_key ? value : expandEnv(value, env_, n.location, errors_, warnings_);
  finish(std::move(n), anchor, 1);
}

void YamlTreeBuilder::OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) {
  auto it = anchors_.find(anchor);
  const std::string name = anchor >= 1 && anchor <= anchor_names_.size() ? anchor_names_[anchor - 1] : "?";
  if (it == anchors_.end()) fail(mark, "alias *" + name + " refers to a node that contains it");
  const size_t size = it->second.size;
  // Checked before copying: this is where an alias bomb would grow.
  if (alias_nodes_ + size > limits_.max_alias_nodes)
    fail(mark, "alias *" + name + " would bring the nodes reached through aliases past " +
                   std::to_string(limits_.max_alias_nodes) + " (an alias bomb?); refusing to expand it");
  alias_nodes_ += size;
  countNodes(size, mark);
  finish(it->second.node, YAML::NullAnchor, size);
}

void YamlTreeBuilder::OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                                      YAML::EmitterStyle::value) {
  open(ConfigNode::Kind::kSequence, mark, anchor);
}

void YamlTreeBuilder::OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                                 YAML::EmitterStyle::value) {
  open(ConfigNode::Kind::kMap, mark, anchor);
}

void YamlTreeBuilder::open(ConfigNode::Kind kind, const YAML::Mark& mark, YAML::anchor_t anchor) {
  if (stack_.size() >= limits_.max_depth)
    fail(mark, "nesting deeper than " + std::to_string(limits_.max_depth) + " levels; refusing to read it");
  const size_t before = nodes_;
  countNodes(1, mark);
  Open o{.node = {}, .anchor = anchor, .nodes_before = before, .key = std::nullopt, .keys = {}};
  o.node.kind = kind;
  o.node.location = at(mark);
  stack_.push_back(std::move(o));
}

void YamlTreeBuilder::close() {
  Open done = std::move(stack_.back());
  stack_.pop_back();
  finish(std::move(done.node), done.anchor, nodes_ - done.nodes_before);
}

void YamlTreeBuilder::finish(ConfigNode node, YAML::anchor_t anchor, size_t size) {
  if (anchor != YAML::NullAnchor) anchors_[anchor] = Anchored{node, size};
  if (stack_.empty()) {
    root_ = std::move(node);
    return;
  }
  Open& parent = stack_.back();
  if (parent.node.isSequence()) {
    parent.node.items.push_back(std::move(node));
    return;
  }
  addToMap(parent, std::move(node));
}

void YamlTreeBuilder::addToMap(Open& map, ConfigNode node) {
  if (!map.key) {  // `node` is a key
    map.skip_value = !node.isScalar();
    if (map.skip_value) errors_.add("", node.location, "map keys must be plain strings");
    map.key.emplace(std::move(node.scalar), node.location);
    return;
  }
  auto [key, key_location] = std::move(*map.key);
  map.key.reset();
  if (map.skip_value) return;
  if (!map.keys.insert(key).second) {
    errors_.add(key, key_location, "duplicate key " + quoteValue(key));
    return;
  }
  map.node.entries.emplace_back(std::move(key), std::move(node));
  map.node.key_locations.push_back(std::move(key_location));
}

}  // namespace proflow::config
