// A YAML document as plain data, with the file:line:column every node came from. Several files are
// merged into one tree before components decode their sections, so every error can name its source.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace proflow::config {

struct SourceLocation {
  std::string file;
  int line = 0;    // 1-based; 0 = unknown
  int column = 0;  // 1-based
  std::string str() const;
};

class ConfigNode {
 public:
  enum class Kind { kNull, kScalar, kSequence, kMap };

  // Declared here, defined in the .cc: clang with libstdc++ in C++20 mode cannot instantiate the
  // implicit ones while ConfigNode is still incomplete (vector<pair<string, ConfigNode>>).
  ConfigNode();
  ConfigNode(const ConfigNode&);
  ConfigNode(ConfigNode&&) noexcept;
  ConfigNode& operator=(const ConfigNode&);
  ConfigNode& operator=(ConfigNode&&) noexcept;
  ~ConfigNode();

  Kind kind = Kind::kNull;
  std::string scalar;  // kScalar only (after ${env:...} expansion)
  bool quoted = false; // scalar was quoted in YAML: "null"/"~" stay strings
  std::vector<ConfigNode> items;                          // kSequence
  std::vector<std::pair<std::string, ConfigNode>> entries;  // kMap, in document order
  std::vector<SourceLocation> key_locations;              // kMap: location of each key
  SourceLocation location;

  bool isNull() const { return kind == Kind::kNull; }
  bool isMap() const { return kind == Kind::kMap; }
  bool isScalar() const { return kind == Kind::kScalar; }
  bool isSequence() const { return kind == Kind::kSequence; }

  const ConfigNode* find(std::string_view key) const;
  ConfigNode* find(std::string_view key);
  // Location of `key` in a map, or of the node itself when absent.
  const SourceLocation& keyLocation(std::string_view key) const;

  static const char* kindName(Kind k);
};

// Deep-merges `overlay` into `base`: maps merge key by key, anything else is replaced.
void mergeInto(ConfigNode& base, const ConfigNode& overlay);

}  // namespace proflow::config
