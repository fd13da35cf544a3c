#include "core/formats/pprof/conversion.h"

#include "core/formats/pprof/pprof_view.h"

namespace proflow::pprof {
namespace {

// The guard against small inputs that convert huge (sample types are already bounded by
// validateProfile's ProfileLimits): the estimate of what conversion allocates checked with the caller
// (`held_bytes`: input the caller keeps meanwhile).
template <class P>
Status checkAmplification(const P& p, const PprofToOtlpOptions& options, size_t held_bytes) {
  const auto types = static_cast<size_t>(p.sample_type_size());
  if (!options.reserve_memory) return {};
  size_t location_refs = 0, label_refs = 0;
  for (const auto& smp : p.sample()) {
    location_refs += static_cast<size_t>(smp.location_id().size());
    label_refs += static_cast<size_t>(smp.label_size());
  }
  const size_t dictionary = static_cast<size_t>(p.location_size()) + static_cast<size_t>(p.function_size()) +
                            static_cast<size_t>(p.mapping_size()) + static_cast<size_t>(p.string_table_size());
  return options.reserve_memory(held_bytes + estimateConversionBytes(static_cast<size_t>(p.sample_size()), types,
                                                                     location_refs, label_refs, dictionary));
}

}  // namespace

size_t estimateConversionBytes(size_t samples, size_t sample_types, size_t location_refs, size_t label_refs,
                               size_t dictionary_entries) {
  // Arena sizes, rounded up: an OTLP Sample with one value ~96 bytes, 4 per attribute index (copied
  // into every profile), a stack ~48 bytes + 4 per location, a dictionary entry with its interning
  // slot and the converter's id maps ~160 bytes (measured: a location, its function and their name
  // string take ~113 bytes each at the conversion's peak).
  const size_t per_otlp_sample = 96;
  return samples * sample_types * per_otlp_sample + label_refs * sample_types * 4 + samples * 48 +
         location_refs * 4 + dictionary_entries * 160;
}

Status reserveConversionMemory(const Profile& p, const PprofToOtlpOptions& options, size_t held_bytes) {
  return checkAmplification(p, options, held_bytes);
}

Status reserveConversionMemory(const ProfileView& p, const PprofToOtlpOptions& options, size_t held_bytes) {
  return checkAmplification(p, options, held_bytes);
}

}  // namespace proflow::pprof
