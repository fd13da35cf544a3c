#include "receivers/self/sampler.h"

#include "receivers/self/perf_event_sampler.h"
#include "receivers/self/timer_sampler.h"

namespace proflow::receivers::self {

Status openSampler(const std::string& mode, const SamplerOptions& options, std::unique_ptr<Sampler>* out,
                   std::string* why) {
  if (mode == "perf_event" || mode == "auto") {
    Status s = PerfEventSampler::probe(options);
    if (s.isOk()) {
      *out = std::make_unique<PerfEventSampler>(options);
      return Status::ok();
    }
    if (mode == "perf_event") return Status(s.code(), s.message() + "; mode: timer or auto samples without it");
    if (why) *why = s.message();
  }
  return TimerSampler::open(options, out);
}

}  // namespace proflow::receivers::self
