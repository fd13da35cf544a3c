// Applies a list of attribute actions to one attribute list (a resource's attributes, or the
// attributes of a sample), in order. Works on a decoded copy so the callers decide how to write the
// result back: inline KeyValues for resources, re-interned dictionary entries for samples.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/attributes/action_config.h"
#include "core/attributes/named_regex.h"
#include "core/model/client_metadata.h"
#include "core/model/otlp_types.h"

namespace proflow::attributes {

// One attribute while being edited. `origin` is the caller's index of the entry it was read from
// (-1 for a new one); `changed` says the entry must be written anew (new key, value or both).
struct Attr {
  std::string key;
  otlp::AnyValue value;  // top-level strings inline
  int origin = -1;
  bool changed = false;
};
using AttrList = std::vector<Attr>;

// SHA-256 of `data` as 64 lowercase hex digits.
std::string sha256Hex(std::string_view data);

// Converts a scalar value; nullopt when it cannot be (a non-number string to int, a list, ...).
std::optional<otlp::AnyValue> convertValue(const otlp::AnyValue& v, ConvertType to);

class ActionSet {
 public:
  ActionSet() = default;
  // `actions` must have passed validateActions(); throws std::invalid_argument otherwise.
  explicit ActionSet(const std::vector<ActionConfig>& actions);

  bool empty() const { return actions_.empty(); }
  // Applies every action in order. Keys stay unique if they were. True when anything changed.
  // `context`: the metadata of the request the data came with (from_context); null when none.
  bool apply(AttrList& attrs, const ClientMetadata* context = nullptr) const;
  // True when an action reads the request metadata (its result then depends on the request).
  bool readsContext() const;

 private:
  struct Action {
    ActionKind kind;
    std::string key;
    Regex key_pattern;  // null: `key` names the attribute
    std::optional<otlp::AnyValue> value;
    std::string from_attribute;
    std::string from_context;  // the metadata key (without "metadata.")
    std::optional<NamedRegex> extract;
    ConvertType convert = ConvertType::kNone;

    bool targets(const std::string& k) const;
  };

  bool applyOne(const Action& a, AttrList& attrs, const ClientMetadata* context) const;
  bool setValue(const Action& a, AttrList& attrs, const ClientMetadata* context) const;
  bool extract(const Action& a, AttrList& attrs) const;
  bool transform(const Action& a, AttrList& attrs) const;

  std::vector<Action> actions_;
};

}  // namespace proflow::attributes
