// Pyroscope's dynamic labels: a LabelsSnapshot protobuf (sent next to the JFR file as the `labels` part)
// maps the contextId recorded in each sample to label pairs. Decoded by hand so the format library needs no
// generated code:
//   LabelsSnapshot { map<int64, Context> contexts = 1; map<int64, string> strings = 2; }
//   Context        { map<int64, int64> labels = 1; }   // label key string id -> value string id
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace proflow::jfr {

using LabelPairs = std::vector<std::pair<std::string, std::string>>;

class ContextLabels {
 public:
  // Decodes an (already gunzipped) LabelsSnapshot. Returns false and sets `error` on malformed bytes;
  // label pairs whose string ids are missing from the string table are dropped.
  bool parse(std::string_view bytes, std::string* error);

  // Labels of a context; nullptr for unknown ids (and for 0, "no context").
  const LabelPairs* find(int64_t context_id) const;
  // A string of the snapshot's table by id ("" when absent): pyroscope-java records a sample's span
  // name as such an id.
  std::string_view string(int64_t id) const;
  size_t size() const { return contexts_.size(); }
  void add(int64_t context_id, LabelPairs labels) { contexts_[context_id] = std::move(labels); }

 private:
  std::unordered_map<int64_t, LabelPairs> contexts_;
  std::unordered_map<int64_t, std::string> strings_;
};

}  // namespace proflow::jfr
