// A pprof Profile read straight from its wire bytes into flat tables (no protobuf messages, strings
// are views into the bytes). The receive path (pprofBytesToFlat) converts from it: parsing into
// perftools::profiles::Profile messages cost as much as the whole conversion, mostly allocations
// and string copies that are thrown away right after. Its accessors mirror the generated Profile's,
// so the validator and the converter are written once for both.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <span>
#include <string_view>
#include <vector>

#include "core/formats/pprof/pprof_codec.h"
#include "core/util/status.h"

namespace proflow::pprof {

class ProfileView;

namespace view {

struct ValueType {
  int64_t type_ = 0, unit_ = 0;
  int64_t type() const { return type_; }
  int64_t unit() const { return unit_; }
};

struct Label {
  int64_t key_ = 0, str_ = 0, num_ = 0, num_unit_ = 0;
  int64_t key() const { return key_; }
  int64_t str() const { return str_; }
  int64_t num() const { return num_; }
  int64_t num_unit() const { return num_unit_; }
};

struct Line {
  uint64_t function_id_ = 0;
  int64_t line_ = 0, column_ = 0;
  uint64_t function_id() const { return function_id_; }
  int64_t line() const { return line_; }
  int64_t column() const { return column_; }
};

struct Mapping {
  uint64_t id_ = 0, memory_start_ = 0, memory_limit_ = 0, file_offset_ = 0;
  int64_t filename_ = 0, build_id_ = 0;
  bool has_functions_ = false, has_filenames_ = false, has_line_numbers_ = false, has_inline_frames_ = false;
  uint64_t id() const { return id_; }
  uint64_t memory_start() const { return memory_start_; }
  uint64_t memory_limit() const { return memory_limit_; }
  uint64_t file_offset() const { return file_offset_; }
  int64_t filename() const { return filename_; }
  int64_t build_id() const { return build_id_; }
  bool has_functions() const { return has_functions_; }
  bool has_filenames() const { return has_filenames_; }
  bool has_line_numbers() const { return has_line_numbers_; }
  bool has_inline_frames() const { return has_inline_frames_; }
};

struct Function {
  uint64_t id_ = 0;
  int64_t name_ = 0, system_name_ = 0, filename_ = 0, start_line_ = 0;
  uint64_t id() const { return id_; }
  int64_t name() const { return name_; }
  int64_t system_name() const { return system_name_; }
  int64_t filename() const { return filename_; }
  int64_t start_line() const { return start_line_; }
};

// Repeated members live in the owning ProfileView's flat arrays: [offset, offset + count).
struct Range {
  uint32_t offset = 0, count = 0;
};

// Every sample's location ids, one after another: a large profile's biggest table. Producers
// number locations 1..N, so ids are kept in 32 bits (half the memory to fault in and to read back)
// until one needs more; then all of them move to 64-bit storage.
class LocationIdColumn {
 public:
  // Inlined into the parser's packed loop: a call per id cost 8% of parsing a large profile.
  [[gnu::always_inline]] void push_back(uint64_t id) {
    if (!wide_ && id <= UINT32_MAX) [[likely]] {
      narrow_.push_back(static_cast<uint32_t>(id));
      return;
    }
    pushWide(id);
  }
  size_t size() const { return wide_ ? wide_ids_.size() : narrow_.size(); }
  void reserve(size_t n) { narrow_.reserve(n); }
  void clear() { narrow_.clear(), wide_ids_.clear(), wide_ = false; }
  bool wide() const { return wide_; }
  const uint32_t* narrow() const { return narrow_.data(); }
  const uint64_t* wideIds() const { return wide_ids_.data(); }

 private:
  [[gnu::noinline]] void pushWide(uint64_t id);

  std::vector<uint32_t> narrow_;
  std::vector<uint64_t> wide_ids_;
  bool wide_ = false;
};

// One sample's location ids, read as 64-bit values whichever width they are stored in.
class LocationIds {
 public:
  class iterator {
   public:
    using iterator_category = std::input_iterator_tag;
    using value_type = uint64_t;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = uint64_t;
    iterator() = default;
    iterator(const LocationIds* ids, size_t i) : ids_(ids), i_(i) {}
    uint64_t operator*() const { return (*ids_)[i_]; }
    iterator& operator++() { return ++i_, *this; }
    iterator operator++(int) { return {ids_, i_++}; }
    bool operator==(const iterator& o) const { return i_ == o.i_; }

   private:
    const LocationIds* ids_ = nullptr;
    size_t i_ = 0;
  };

  LocationIds(const uint32_t* narrow, const uint64_t* wide, size_t n) : narrow_(narrow), wide_(wide), n_(n) {}
  size_t size() const { return n_; }
  bool empty() const { return n_ == 0; }
  uint64_t operator[](size_t i) const { return narrow_ ? narrow_[i] : wide_[i]; }
  iterator begin() const { return {this, 0}; }
  iterator end() const { return {this, n_}; }
  // The hot loops' forms: the width is tested once, not per id.
  // True when `f` holds for every id; stops at the first that fails.
  template <class F>
  bool allOf(const F& f) const {
    if (narrow_) {
      for (size_t i = 0; i < n_; ++i)
        if (!f(static_cast<uint64_t>(narrow_[i]))) return false;
    } else {
      for (size_t i = 0; i < n_; ++i)
        if (!f(wide_[i])) return false;
    }
    return true;
  }
  template <class F>
  void forEach(const F& f) const {
    allOf([&](uint64_t id) { return f(id), true; });
  }

 private:
  const uint32_t* narrow_;
  const uint64_t* wide_;
  size_t n_;
};

struct Location {
  uint64_t id_ = 0, mapping_id_ = 0, address_ = 0;
  bool is_folded_ = false;
  Range lines_;
  const ProfileView* owner_ = nullptr;

  uint64_t id() const { return id_; }
  uint64_t mapping_id() const { return mapping_id_; }
  uint64_t address() const { return address_; }
  bool is_folded() const { return is_folded_; }
  std::span<const Line> line() const;
  int line_size() const { return static_cast<int>(lines_.count); }
  const Line& line(int i) const { return line()[static_cast<size_t>(i)]; }
};

struct Sample {
  Range locations_, values_, labels_;
  const ProfileView* owner_ = nullptr;

  LocationIds location_id() const;
  std::span<const int64_t> value() const;
  int value_size() const { return static_cast<int>(values_.count); }
  int64_t value(int i) const { return value()[static_cast<size_t>(i)]; }
  std::span<const Label> label() const;
  int label_size() const { return static_cast<int>(labels_.count); }
  const Label& label(int i) const { return label()[static_cast<size_t>(i)]; }
};

}  // namespace view

class ProfileView {
 public:
  ProfileView() = default;
  // Samples and locations point back at their view: it stays where it was parsed.
  ProfileView(const ProfileView&) = delete;
  ProfileView& operator=(const ProfileView&) = delete;

  // The serialized Profile the views point into (must outlive this object).
  std::string_view raw() const { return raw_; }

  int sample_type_size() const { return size(sample_type_); }
  const view::ValueType& sample_type(int i) const { return sample_type_[static_cast<size_t>(i)]; }
  int sample_size() const { return size(sample_); }
  const std::vector<view::Sample>& sample() const { return sample_; }
  const view::Sample& sample(int i) const { return sample_[static_cast<size_t>(i)]; }
  int mapping_size() const { return size(mapping_); }
  const std::vector<view::Mapping>& mapping() const { return mapping_; }
  const view::Mapping& mapping(int i) const { return mapping_[static_cast<size_t>(i)]; }
  int location_size() const { return size(location_); }
  const std::vector<view::Location>& location() const { return location_; }
  const view::Location& location(int i) const { return location_[static_cast<size_t>(i)]; }
  int function_size() const { return size(function_); }
  const std::vector<view::Function>& function() const { return function_; }
  const view::Function& function(int i) const { return function_[static_cast<size_t>(i)]; }
  int string_table_size() const { return size(string_table_); }
  std::string_view string_table(int i) const { return string_table_[static_cast<size_t>(i)]; }
  int64_t drop_frames() const { return drop_frames_; }
  int64_t keep_frames() const { return keep_frames_; }
  int64_t time_nanos() const { return time_nanos_; }
  int64_t duration_nanos() const { return duration_nanos_; }
  bool has_period_type() const { return has_period_type_; }
  const view::ValueType& period_type() const { return period_type_; }
  int64_t period() const { return period_; }
  int comment_size() const { return size(comment_); }
  const std::vector<int64_t>& comment() const { return comment_; }
  int64_t comment(int i) const { return comment_[static_cast<size_t>(i)]; }
  int64_t default_sample_type() const { return default_sample_type_; }
  int64_t doc_url() const { return doc_url_; }
  // Location ids and labels over all samples: what a converter reserves for stacks and attributes.
  size_t total_location_ids() const { return location_ids_.size(); }
  size_t total_labels() const { return labels_.size(); }

 private:
  friend class ViewParser;
  friend struct view::Location;
  friend struct view::Sample;
  void clear() {
    sample_type_.clear(), sample_.clear(), mapping_.clear(), location_.clear(), function_.clear();
    string_table_.clear(), comment_.clear(), location_ids_.clear(), values_.clear(), labels_.clear(), lines_.clear();
    drop_frames_ = keep_frames_ = time_nanos_ = duration_nanos_ = period_ = default_sample_type_ = doc_url_ = 0;
    has_period_type_ = false;
    period_type_ = {};
  }
  template <class T>
  static int size(const std::vector<T>& v) {
    return static_cast<int>(v.size());
  }

  std::string_view raw_;
  std::vector<view::ValueType> sample_type_;
  std::vector<view::Sample> sample_;
  std::vector<view::Mapping> mapping_;
  std::vector<view::Location> location_;
  std::vector<view::Function> function_;
  std::vector<std::string_view> string_table_;
  std::vector<int64_t> comment_;
  int64_t drop_frames_ = 0, keep_frames_ = 0, time_nanos_ = 0, duration_nanos_ = 0, period_ = 0;
  int64_t default_sample_type_ = 0, doc_url_ = 0;
  bool has_period_type_ = false;
  view::ValueType period_type_;
  // The flat arrays behind Sample and Location ranges.
  view::LocationIdColumn location_ids_;
  std::vector<int64_t> values_;
  std::vector<view::Label> labels_;
  std::vector<view::Line> lines_;
};

// Reads a serialized (uncompressed) Profile the way protobuf does: fields in any order, repeated
// scalars packed or not, unknown fields and mismatched wire types skipped, last value of a singular
// field wins. Errors (kInvalidArgument) name what is wrong and the byte offset. No validation:
// run validateProfile(view) before converting. `raw` must outlive `out`.
Status parseProfileView(std::string_view raw, ProfileView* out);

// Structural checks, the same rules and messages as validateProfile(const Profile&).
Status validateProfile(const ProfileView& p, const ProfileLimits& limits = {});

namespace view {
inline std::span<const Line> Location::line() const { return {owner_->lines_.data() + lines_.offset, lines_.count}; }
inline LocationIds Sample::location_id() const {
  const LocationIdColumn& c = owner_->location_ids_;
  if (c.wide()) return {nullptr, c.wideIds() + locations_.offset, locations_.count};
  return {c.narrow() + locations_.offset, nullptr, locations_.count};
}
inline std::span<const int64_t> Sample::value() const {
  return {owner_->values_.data() + values_.offset, values_.count};
}
inline std::span<const Label> Sample::label() const {
  return {owner_->labels_.data() + labels_.offset, labels_.count};
}
}  // namespace view

}  // namespace proflow::pprof
