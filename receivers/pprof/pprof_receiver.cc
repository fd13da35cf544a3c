#include "receivers/pprof/pprof_receiver.h"

#include "receivers/pprof/push_server.h"
#include "receivers/pprof/scraper.h"

namespace proflow::receivers::pprof {

PprofReceiver::PprofReceiver(const CreateSettings& settings, PprofReceiverConfig config, ConsumerPtr next)
    : settings_(settings), config_(std::move(config)), next_(std::move(next)) {}

PprofReceiver::~PprofReceiver() { shutdown(std::chrono::steady_clock::now()); }

Status PprofReceiver::start(Host& host) {
  if (!config_.endpoint.empty()) {
    push_ = std::make_unique<PushServer>(settings_, config_, next_);
    if (Status s = push_->start(host); !s.isOk()) return s;
  }
  if (config_.scrape) {
    scraper_ = std::make_unique<Scraper>(settings_, config_, next_);
    if (Status s = scraper_->start(); !s.isOk()) {
      shutdown(std::chrono::steady_clock::now());
      return s;
    }
  }
  return Status::ok();
}

void PprofReceiver::shutdown(Deadline deadline) {
  if (push_) push_->stop();
  if (scraper_) scraper_->stop(deadline);
}

int PprofReceiver::pushPort() const { return push_ ? push_->port() : 0; }

}  // namespace proflow::receivers::pprof
