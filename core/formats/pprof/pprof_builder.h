// Builds one pprof (as a ProfileDraft) from OTLP dictionary entries: interns strings and assigns
// pprof ids to the mappings, locations and functions it is handed, on first use. Internal to the
// pprof library.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/formats/pprof/profile_draft.h"
#include "core/util/index_set.h"
#include "core/model/otlp_types.h"
#include "core/util/status.h"

namespace proflow::pprof::internal {

class PprofBuilder {
 public:
  PprofBuilder(const otlp::Dictionary& dict, ProfileDraft* out);

  int64_t str(std::string_view s);
  int64_t dictStr(int32_t index);  // index must be in range

  // The next three append to the sample the draft has open (ProfileDraft::beginSample).
  // Location ids for a stack; errors on dangling indexes.
  Status addStack(int32_t stack_index);
  // Labels for sample attributes and the link (when its ids are not labels already).
  Status addLabels(const otlp::Sample& os);
  // One event of a split sample (ProfileDraft::addEvent) at `nanos`, after its values.
  void addEvent(int64_t nanos);
  // Header fields from a profile's attributes: drop/keep frames, doc_url, comments.
  Status addProfileAttributes(const otlp::Profile& op);
  // Puts the mappings collected so far in dictionary order (which preserves the producer's order)
  // and closes the last sample.
  void finish();

  // Resolved view of an attribute: key and string/int value.
  struct Attr {
    std::string_view key;
    bool is_int = false, is_str = false;
    std::string_view text;  // string form (bool/double/string values); may point into `formatted`
    int64_t num = 0;
    std::string_view unit;
    std::string formatted;  // storage for a double written as text
  };
  Status attribute(int32_t index, Attr* a) const;

 private:
  struct CachedLabel {
    bool resolved = false, present = false, is_link = false;
    int64_t key = 0, str = 0, num = 0, unit = 0;
  };
  Status label(int32_t index, const CachedLabel** out);
  Status location(int32_t index, uint64_t* id);
  Status function(int32_t index, uint64_t* id);
  Status mapping(int32_t index, uint64_t* id);

  const otlp::Dictionary& dict_;
  ProfileDraft* out_;
  IndexSet strings_;  // over out_->strings
  std::vector<int64_t> dict_strings_;
  std::vector<uint64_t> location_ids_, function_ids_, mapping_ids_;
  std::vector<int32_t> used_mappings_;
  std::vector<view::Mapping> mappings_;
  std::vector<CachedLabel> labels_;
};

}  // namespace proflow::pprof::internal
