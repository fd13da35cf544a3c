// Flat batch -> Parca WriteRawRequest, as a pure function so tests can check the payload.
//
// Each pprof rebuilt from the batch (core/formats/pprof flat_to_pprof: profiles that came from one pprof become one
// pprof again, gzip) is a RawSample; its series labels are
//   __name__        the profile's pyroscope.profile.name attribute, else the metric family of its
//                   sample types (cpu -> process_cpu, alloc_/inuse_ -> memory, ...; core/util/pyroscope_metric.h),
//                   else the sanitised sample type — Parca requires it
//   <resource attributes>  names sanitised to [a-zA-Z_][a-zA-Z0-9_]* (service.name -> service_name);
//                   values that are not scalars are left out, as are names Parca reserves (__*)
//   <external_labels>      override resource attributes
// Label sets are sorted and unique (Parca refuses duplicates); pprofs with the same set share a series.
#pragma once

#include <map>
#include <string>

#include "core/flat/flat_batch.h"
#include "core/util/status.h"
#include "parca/profilestore/v1alpha1/profilestore.pb.h"

namespace proflow::exporters::parca {

namespace store = ::parca::profilestore::v1alpha1;

// Errors (kInvalidArgument) come from the flat -> pprof conversion (dangling dictionary indexes).
Status buildWriteRaw(const flat::Batch& batch, const std::map<std::string, std::string>& external_labels,
                     store::WriteRawRequest* out);

}  // namespace proflow::exporters::parca
