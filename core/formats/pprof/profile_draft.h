// The pprof that flatToPprof is assembling, as flat tables: the builder appends to vectors and
// copies strings into a pool instead of creating protobuf messages (one allocation and one copy per
// string and per message made building the output cost more than converting the input). Written
// out either straight to wire bytes (writeProfile: what exporters send) or as a Profile message.
// Internal to the pprof library.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/formats/pprof/pprof_codec.h"
#include "core/formats/pprof/pprof_view.h"

namespace proflow::pprof::internal {

// Append-only storage for the draft's strings: views stay valid while the pool lives.
class StringPool {
 public:
  std::string_view add(std::string_view s);

 private:
  static constexpr size_t kChunk = 64 << 10;
  std::vector<std::unique_ptr<char[]>> chunks_;
  size_t used_ = kChunk;  // in the last chunk; a full "chunk" forces the first allocation
};

struct ProfileDraft {
  // A sample's values are one per sample type. A split sample (events.count > 0) stands for one
  // pprof sample per event, written out only as bytes or messages are made: each has the sample's
  // stack and labels, its own values (values holds the same number for every event, event by
  // event) and a timestamp label (event_key = event_times[...] event_unit). A profile of many
  // events then holds each stack and label list once, and 8 bytes plus its values per event.
  struct Sample {
    view::Range locations, values, labels, events;
  };
  struct Location {
    uint64_t id = 0, mapping_id = 0, address = 0;
    bool is_folded = false;
    view::Range lines;
  };

  std::vector<view::ValueType> sample_type;
  std::vector<Sample> samples;
  std::vector<view::Mapping> mappings;
  std::vector<Location> locations;
  std::vector<view::Function> functions;
  std::vector<std::string_view> strings;  // in `pool`
  int64_t drop_frames = 0, keep_frames = 0, time_nanos = 0, duration_nanos = 0, period = 0;
  bool has_period_type = false;
  view::ValueType period_type;
  std::vector<int64_t> comment;
  int64_t default_sample_type = 0, doc_url = 0;

  // What the ranges of samples and locations index. Builders number locations by position
  // (1..N, N < 2^31), so the samples' location ids take 32 bits.
  std::vector<uint32_t> location_ids;
  std::vector<int64_t> values;
  std::vector<view::Label> labels;
  std::vector<view::Line> lines;
  std::vector<int64_t> event_times;
  int64_t event_key = 0, event_unit = 0;  // string indexes of the split samples' timestamp label
  StringPool pool;

  // Opens a sample at the end of the flat arrays; its ranges grow with what is appended until the
  // next beginSample (or closeSample).
  void beginSample();
  // Makes the open sample a split one, or adds to its events: the values appended next (one per
  // sample type) are this event's.
  void addEvent(int64_t nanos) { event_times.push_back(nanos); }
  void closeSample();
};

// The serialized Profile, as protobuf's serializer would write it (fields in number order, packed
// repeated scalars, proto3 defaults omitted): byte-identical to toProfile() + SerializeToString.
void writeProfile(const ProfileDraft& d, std::string* out);

// The same bytes in consecutive chunks of about kWriteChunk (more when one field is larger), each
// valid only during the call; `last` marks the final one. A large profile is then never held whole.
inline constexpr size_t kWriteChunk = 256 << 10;
using ChunkSink = std::function<void(std::string_view chunk, bool last)>;
void writeProfile(const ProfileDraft& d, const ChunkSink& sink);

// Serialized and compressed as compressProfile() would; a profile larger than a chunk is
// compressed chunk by chunk as it is written (compression::StreamCompressor).
Status writeProfile(const ProfileDraft& d, std::string* out, Encoding encoding, int level);

void toProfile(const ProfileDraft& d, Profile* out);

}  // namespace proflow::pprof::internal
