// Builds a ConfigNode tree straight from yaml-cpp's parse events, within YamlLimits. yaml-cpp's own
// node tree shares an aliased node between its uses, so the expansion of an alias happens when the
// tree is copied into ConfigNodes: this builder counts every node it creates, aliases included, and
// refuses an alias whose copy would pass the budget before making it. A "billion laughs" document
// thus fails after a bounded amount of work and memory.
#pragma once

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/mark.h>

#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/config/config_errors.h"
#include "core/config/config_loader.h"
#include "core/config/config_node.h"

namespace proflow::config {

class YamlTreeBuilder final : public YAML::EventHandler {
 public:
  // Thrown out of the parser when a limit is passed (already reported to `errors`): stops the parse.
  struct LimitExceeded {};

  YamlTreeBuilder(const std::string& file, const YamlLimits& limits, const EnvLookup& env, ConfigErrors& errors,
                  std::vector<std::string>& warnings);

  // The document's root; kNull when the document was empty.
  ConfigNode takeRoot() { return std::move(root_); }

  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override;
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override;
  void OnScalar(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                const std::string& value) override;
  void OnSequenceStart(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value style) override;
  void OnSequenceEnd() override { close(); }
  void OnMapStart(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value style) override;
  void OnMapEnd() override { close(); }
  void OnAnchor(const YAML::Mark& mark, const std::string& name) override;

 private:
  // A sequence or map being filled.
  struct Open {
    ConfigNode node;
    YAML::anchor_t anchor;
    size_t nodes_before;  // nodes_ when it opened: its size is nodes_ - nodes_before when it closes
    // Maps only: the key waiting for its value, and whether that value is to be dropped (bad key).
    std::optional<std::pair<std::string, SourceLocation>> key;
    bool skip_value = false;
    std::unordered_set<std::string> keys;  // seen so far, to refuse duplicates in O(1)
  };
  struct Anchored {
    ConfigNode node;
    size_t size;  // nodes in it, aliases expanded
  };

  SourceLocation at(const YAML::Mark& mark) const;
  void countNodes(size_t n, const YAML::Mark& mark);
  void open(ConfigNode::Kind kind, const YAML::Mark& mark, YAML::anchor_t anchor);
  void close();
  // Hands a finished node of `size` nodes to its parent (or makes it the root); remembers anchors.
  void finish(ConfigNode node, YAML::anchor_t anchor, size_t size);
  void addToMap(Open& map, ConfigNode node);
  [[noreturn]] void fail(const YAML::Mark& mark, std::string message);

  const std::string& file_;
  const YamlLimits& limits_;
  const EnvLookup& env_;
  ConfigErrors& errors_;
  std::vector<std::string>& warnings_;

  std::vector<Open> stack_;
  std::unordered_map<YAML::anchor_t, Anchored> anchors_;  // the anchored nodes that are complete
  std::vector<std::string> anchor_names_;                 // by anchor id - 1 (yaml-cpp counts from 1)
  size_t nodes_ = 0;
  size_t alias_nodes_ = 0;
  ConfigNode root_;
};

}  // namespace proflow::config
