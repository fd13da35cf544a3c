#include "processors/batch/request_splitter.h"

#include "core/batch.h"
#include "core/request_merger.h"

namespace proflow::processors::batch {
namespace {

// Collects profiles (moved out of the source) into a request that shares the source's dictionary
// while it is merged into a fresh part.
class PartBuilder {
 public:
  PartBuilder(otlp::Request& src, std::vector<otlp::Request>& out) : src_(src), out_(out) {}

  void add(const otlp::ResourceProfiles& rp, const otlp::ScopeProfiles& sp, otlp::Profile&& profile) {
    if (&rp != last_rp_) {
      cur_rp_ = staging_.add_resource_profiles();
      *cur_rp_->mutable_resource() = rp.resource();
      cur_rp_->set_schema_url(rp.schema_url());
      last_rp_ = &rp;
      last_sp_ = nullptr;
    }
    if (&sp != last_sp_) {
      cur_sp_ = cur_rp_->add_scope_profiles();
      *cur_sp_->mutable_scope() = sp.scope();
      cur_sp_->set_schema_url(sp.schema_url());
      last_sp_ = &sp;
    }
    *cur_sp_->add_profiles() = std::move(profile);
    ++count_;
  }

  uint64_t count() const { return count_; }

  void flush() {
    if (count_ == 0) return;
    // Lend the source dictionary to the staging request (swap is O(1)) so the merger can resolve
    // the staged profiles' indexes, then take it back.
    staging_.mutable_dictionary()->Swap(src_.mutable_dictionary());
    otlp::Request part;
    RequestMerger(&part).append(staging_);
    staging_.mutable_dictionary()->Swap(src_.mutable_dictionary());
    out_.push_back(std::move(part));
    staging_.clear_resource_profiles();
    last_rp_ = nullptr;
    last_sp_ = nullptr;
    count_ = 0;
  }

 private:
  otlp::Request& src_;
  std::vector<otlp::Request>& out_;
  otlp::Request staging_;
  const otlp::ResourceProfiles* last_rp_ = nullptr;
  const otlp::ScopeProfiles* last_sp_ = nullptr;
  otlp::ResourceProfiles* cur_rp_ = nullptr;
  otlp::ScopeProfiles* cur_sp_ = nullptr;
  uint64_t count_ = 0;
};

}  // namespace

std::vector<otlp::Request> splitRequest(otlp::Request&& src, uint64_t max_profiles) {
  std::vector<otlp::Request> out;
  if (max_profiles == 0 || countRequest(src).profiles <= max_profiles) {
    out.push_back(std::move(src));
    return out;
  }
  PartBuilder part(src, out);
  for (auto& rp : *src.mutable_resource_profiles())
    for (auto& sp : *rp.mutable_scope_profiles())
      for (auto& profile : *sp.mutable_profiles()) {
        part.add(rp, sp, std::move(profile));
        if (part.count() == max_profiles) part.flush();
      }
  part.flush();
  return out;
}

}  // namespace proflow::processors::batch
