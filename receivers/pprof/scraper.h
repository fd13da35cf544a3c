// Scrape mode: pulls Go-style /debug/pprof/* endpoints of every target on a fixed schedule, with a
// random start offset per target (jitter) so many agents do not scrape in lockstep.
//
// Timers live on the shared I/O context (a strand); the blocking HTTP fetch, decoding, delta and
// conversion run on the scraper's own threads (a CPU profile holds one for `seconds=N`), never on
// the I/O thread. A profile whose previous scrape is still running skips its turn (counted).
// Cumulative sample types go through computeDelta() with per-target state.
#pragma once

#include <memory>

#include "core/component/consumer.h"
#include "core/component/factory.h"
#include "receivers/pprof/config.h"

namespace proflow::receivers::pprof {

class Scraper {
 public:
  Scraper(const CreateSettings& settings, const PprofReceiverConfig& config, ConsumerPtr next);
  ~Scraper();

  Status start();
  // Stops the schedule and waits for running scrapes until `deadline`; scrapes still running after
  // it finish on their own and deliver nothing.
  void stop(Deadline deadline);

  struct Job;
  struct Shared;    // jobs, fetch threads and their queue; kept alive by those threads
  struct Schedule;  // timers on the I/O strand; kept alive by their handlers

 private:
  std::shared_ptr<Shared> shared_;
  std::shared_ptr<Schedule> schedule_;
};

// True when the endpoint already returns deltas (Go's ?seconds=N on non-CPU profiles, godeltaprof's
// delta_* paths), so the scraper must not difference again.
bool isPrecomputedDelta(const std::string& path);

}  // namespace proflow::receivers::pprof
