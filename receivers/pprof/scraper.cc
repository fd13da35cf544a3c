#include "receivers/pprof/scraper.h"

#include <atomic>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <random>
#include <shared_mutex>
#include <thread>

#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <spdlog/logger.h>

#include "core/net/http_client.h"
#include "core/runtime/thread_name.h"
#include "receivers/pprof/delta.h"
#include "receivers/pprof/ingest.h"

namespace proflow::receivers::pprof {

using Clock = std::chrono::steady_clock;
using Strand = boost::asio::strand<boost::asio::io_context::executor_type>;

// One (target, profile) pair: its URL, attributes and delta state.
struct Scraper::Job {
  std::string url;  // also its name in logs
  size_t target = 0;
  bool delta = false;
  Attributes attributes;
  std::atomic<bool> in_flight{false};
  // Touched only by the scrape running this job (in_flight makes that one at a time).
  DeltaState state;
  bool healthy = true;
};

struct Scraper::Shared {
  Shared(const CreateSettings& s, const PprofReceiverConfig& c, ConsumerPtr n)
      : config(*c.scrape),
        max_inflate_ratio(c.max_inflate_ratio),
        next(std::move(n)),
        logger(s.logger),
        telemetry(s.telemetry),
        client(net::HttpClientOptions{{}, c.scrape->max_response_size.bytes, 4, "proflow-pprof-scraper"}),
        succeeded(s.telemetry->counter("pprof_scrapes_succeeded_total", "scrapes that returned a valid profile")),
        failed(s.telemetry->counter("pprof_scrapes_failed_total", "scrapes that failed (HTTP, timeout, bad pprof)")),
        skipped(s.telemetry->counter("pprof_scrapes_skipped_total",
                                     "scheduled scrapes skipped because the previous one was still running")),
        primed(s.telemetry->counter("pprof_delta_primed_total",
                                    "cumulative profiles kept only as a baseline (first scrape, reset, overflow)")) {}

  void enqueue(const std::shared_ptr<Job>& job);
  void workerLoop();
  void scrape(Job& job);
  void fail(Job& job, const std::string& why);
  // Runs `f` unless stop() gave up on running scrapes (then the pipeline and telemetry may be gone).
  template <class F>
  void whileOpen(F&& f) {
    std::shared_lock lk(deliver_mu);
    if (!closed) f();
  }

  ScrapeConfig config;
  double max_inflate_ratio;
  ConsumerPtr next;
  std::shared_ptr<spdlog::logger> logger;
  telemetry::ComponentTelemetry* telemetry;
  net::HttpClient client;
  std::vector<std::shared_ptr<Job>> jobs;

  std::mutex mu;
  std::condition_variable work_cv, idle_cv;
  std::deque<std::shared_ptr<Job>> queue;
  int running = 0;
  std::atomic<bool> stopping{false};
  std::vector<std::thread> threads;

  std::shared_mutex deliver_mu;
  bool closed = false;

  telemetry::Counter& succeeded;
  telemetry::Counter& failed;
  telemetry::Counter& skipped;
  telemetry::Counter& primed;
};

struct Scraper::Schedule : std::enable_shared_from_this<Schedule> {
  struct Slot {
    std::shared_ptr<Job> job;
    boost::asio::steady_timer timer;
    Clock::time_point next;
  };
  Schedule(boost::asio::io_context& io, std::shared_ptr<Shared> s)
      : strand(boost::asio::make_strand(io)), shared(std::move(s)) {}

  void arm(Slot* slot);  // on the strand

  Strand strand;
  std::shared_ptr<Shared> shared;
  std::vector<std::unique_ptr<Slot>> slots;
};

void Scraper::Schedule::arm(Slot* slot) {
  slot->timer.expires_at(slot->next);
  slot->timer.async_wait([self = shared_from_this(), slot](const boost::system::error_code& ec) {
    if (ec || self->shared->stopping) return;
    self->shared->enqueue(slot->job);
    // Fixed rate: the next slot after now, so a slow scrape or a late timer does not shift the phase.
    const auto interval = self->shared->config.interval.value;
    const auto now = Clock::now();
    slot->next += interval;
    if (slot->next <= now) slot->next += ((now - slot->next) / interval + 1) * interval;
    self->arm(slot);
  });
}

bool isPrecomputedDelta(const std::string& path) {
  const bool cpu = path.rfind("/debug/pprof/profile", 0) == 0;
  return path.find("delta_") != std::string::npos || (!cpu && path.find("seconds=") != std::string::npos);
}

void Scraper::Shared::enqueue(const std::shared_ptr<Job>& job) {
  if (job->in_flight.exchange(true)) {
    skipped.add();
    logger->debug("pprof scrape of {} skipped: the previous one is still running", job->url);
    return;
  }
  {
    std::lock_guard lk(mu);
    queue.push_back(job);
  }
  work_cv.notify_one();
}

void Scraper::Shared::workerLoop() {
  for (;;) {
    std::shared_ptr<Job> job;
    {
      std::unique_lock lk(mu);
      work_cv.wait(lk, [&] { return stopping || !queue.empty(); });
      if (stopping) return;
      job = std::move(queue.front());
      queue.pop_front();
      ++running;
    }
    scrape(*job);
    job->in_flight = false;
    {
      std::lock_guard lk(mu);
      --running;
    }
    idle_cv.notify_all();
  }
}

void Scraper::Shared::fail(Job& job, const std::string& why) {
  whileOpen([&] { failed.add(); });
  // Log the transition to failing loudly, repeats quietly: a target that is down fails every interval.
  if (job.healthy) logger->warn("pprof scrape of {} failed: {}", job.url, why);
  else logger->debug("pprof scrape of {} failed: {}", job.url, why);
  job.healthy = false;
}

void Scraper::Shared::scrape(Job& job) {
  const auto now_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                          std::chrono::system_clock::now().time_since_epoch()).count();
  net::HttpResult r = client.request("GET", job.url, {}, "", config.effectiveTimeout());
  if (Status s = r.toStatus(); !s.isOk()) return fail(job, s.toString());
  whileOpen([&] { telemetry->bytesIn(r.body.size()); });

  ::proflow::pprof::Profile profile;
  ::proflow::pprof::DecodeOptions options;
  options.limits.max_output_bytes = config.max_response_size.bytes;
  options.limits.max_inflate_ratio = max_inflate_ratio;
  if (Status s = ::proflow::pprof::decodeProfile(r.body, &profile, options); !s.isOk()) {
    whileOpen([&] {
      telemetry->record(telemetry::Event::kReceived, {});
      telemetry->record(telemetry::Event::kRefused, {});
    });
    return fail(job, s.toString());
  }
  if (!job.healthy) logger->info("pprof scrape of {} works again", job.url);
  job.healthy = true;
  whileOpen([&] { succeeded.add(); });

  ::proflow::pprof::Profile delta;
  const ::proflow::pprof::Profile* out = &profile;
  if (job.delta) {
    DeltaOptions d;
    d.max_keys = static_cast<size_t>(config.max_delta_keys);
    d.now_nanos = now_ns;
    const DeltaOutcome o = computeDelta(profile, job.state, &delta, d);
    if (o == DeltaOutcome::kTooManyKeys)
      logger->warn("pprof scrape of {}: more than {} distinct samples, delta state dropped", job.url,
                   config.max_delta_keys);
    if (o == DeltaOutcome::kReset) logger->info("pprof scrape of {}: counters went down (restart?), re-primed", job.url);
    if (o != DeltaOutcome::kDelta && o != DeltaOutcome::kPassThrough) return whileOpen([&] { primed.add(); });
    if (o == DeltaOutcome::kDelta) out = &delta;
  }
  if (out->sample_size() == 0) return;  // nothing happened in this window
  whileOpen([&] {
    if (Status s = deliverProfile(*out, job.attributes, *next, *telemetry); !s.isOk())
      logger->warn("pprof scrape of {}: pipeline refused the profile: {}", job.url, s.toString());
  });
}

Scraper::Scraper(const CreateSettings& settings, const PprofReceiverConfig& config, ConsumerPtr next)
    : shared_(std::make_shared<Shared>(settings, config, std::move(next))),
      schedule_(std::make_shared<Schedule>(settings.runtime->io(), shared_)) {
  const ScrapeConfig& sc = *config.scrape;
  for (size_t i = 0; i < sc.targets.size(); ++i) {
    const auto& t = sc.targets[i];
    const std::string base = normalizeTargetUrl(t.endpoint);
    Attributes attrs;
    for (const auto& [k, v] : config.attributes) setAttribute(attrs, k, v);
    for (const auto& [k, v] : t.labels) setAttribute(attrs, k, v);
    if (!t.service_name.empty()) setAttribute(attrs, "service.name", t.service_name);
    for (const auto& p : t.profiles) {
      auto job = std::make_shared<Job>();
      const std::string path = profilePath(p, sc.cpuSeconds());
      job->url = base + path;
      job->target = i;
      job->delta = sc.delta && !isPrecomputedDelta(path);
      job->attributes = attrs;
      shared_->jobs.push_back(job);
      schedule_->slots.push_back(
          std::make_unique<Schedule::Slot>(Schedule::Slot{job, boost::asio::steady_timer(schedule_->strand), {}}));
    }
  }
}

Scraper::~Scraper() { stop(Clock::now()); }

Status Scraper::start() {
  Shared& s = *shared_;
  if (Status t = s.client.tlsStatus(); !t.isOk()) return Status(t.code(), "pprof scrape: " + t.message());
  const size_t n = std::min<size_t>(static_cast<size_t>(s.config.max_concurrent_scrapes), s.jobs.size());
  for (size_t i = 0; i < n; ++i) s.threads.emplace_back([shared = shared_] { setThreadName("pprof-scrape"); shared->workerLoop(); });

  // One random start offset per target (its profiles share it), within [0, jitter].
  std::mt19937_64 rng(std::random_device{}());
  const int64_t jitter = s.config.effectiveJitter().count();
  std::vector<Clock::duration> offsets(s.config.targets.size());
  for (auto& o : offsets)
    o = std::chrono::milliseconds(jitter > 0 ? std::uniform_int_distribution<int64_t>(0, jitter)(rng) : 0);
  const auto now = Clock::now();
  for (auto& slot : schedule_->slots) slot->next = now + offsets[slot->job->target];
  boost::asio::post(schedule_->strand, [sch = schedule_] {
    if (sch->shared->stopping) return;
    for (auto& slot : sch->slots) sch->arm(slot.get());
  });
  s.logger->info("pprof scraping {} profile(s) of {} target(s) every {}", s.jobs.size(), s.config.targets.size(),
                 s.config.interval.str());
  return Status::ok();
}

void Scraper::stop(Deadline deadline) {
  Shared& s = *shared_;
  {
    std::lock_guard lk(s.mu);
    if (s.stopping.exchange(true)) return;
    s.queue.clear();
  }
  s.work_cv.notify_all();
  boost::asio::post(schedule_->strand, [sch = schedule_] {
    for (auto& slot : sch->slots) slot->timer.cancel();
  });
  bool idle;
  {
    std::unique_lock lk(s.mu);
    idle = s.idle_cv.wait_until(lk, deadline, [&] { return s.running == 0; });
  }
  {
    std::unique_lock lk(s.deliver_mu);
    s.closed = true;
  }
  // A scrape still blocked in its request (a CPU profile takes seconds) ends on its own later; its
  // thread holds the shared state (not the timers) and delivers nothing now that `closed` is set.
  for (auto& t : s.threads) {
    if (idle) t.join();
    else t.detach();
  }
  s.threads.clear();
  if (!idle) s.logger->info("pprof scraper stopped with a scrape still running; its result will be dropped");
}

}  // namespace proflow::receivers::pprof
