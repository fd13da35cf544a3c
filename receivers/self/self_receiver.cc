#include "receivers/self/self_receiver.h"

#include <ctime>

#include "core/runtime/thread_name.h"
#include "receivers/self/process_info.h"

namespace proflow::receivers::self {

namespace {

using Clock = std::chrono::steady_clock;
constexpr auto kDrainEvery = std::chrono::milliseconds(100);
// Samples held for an emit that is still busy with the previous interval; beyond, they are lost.
constexpr size_t kMaxPendingSamples = 1'000'000;

uint64_t threadCpuNs() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1'000'000'000ull + static_cast<uint64_t>(ts.tv_nsec);
}

}  // namespace

SelfReceiver::SelfReceiver(const CreateSettings& settings, SelfReceiverConfig config, ConsumerPtr next)
    : settings_(settings),
      config_(std::move(config)),
      next_(std::move(next)),
      samples_(settings.telemetry->counter("self_samples_total", "CPU samples of the daemon's own threads taken")),
      lost_(settings.telemetry->counter("self_lost_samples_total", "samples lost: full ring buffers or slots")),
      own_cpu_ns_(settings.telemetry->counter("self_sampler_cpu_nanoseconds_total",
                                              "CPU time the receiver's own threads (sampling, building) used")),
      threads_(settings.telemetry->gauge("self_threads", "threads being sampled")),
      mode_(settings.telemetry->gauge("self_mode", "sampling mode: 1 perf_event, 2 timer")),
      heap_in_use_(settings.telemetry->gauge("self_heap_in_use_bytes", "bytes allocated with malloc (mallinfo2)")),
      heap_arena_(settings.telemetry->gauge("self_heap_arena_bytes", "bytes of malloc's arenas (mallinfo2)")),
      heap_mmap_(settings.telemetry->gauge("self_heap_mmap_bytes", "bytes of mmapped allocations (mallinfo2)")),
      rss_(settings.telemetry->gauge("self_resident_bytes", "resident set size of the process")) {}

SelfReceiver::~SelfReceiver() { shutdown(Clock::now()); }

std::string SelfReceiver::mode() const { return sampler_ ? std::string(sampler_->mode()) : ""; }

Status SelfReceiver::start(Host&) {
  if (sampler_) return Status::ok();
  SamplerOptions options;
  options.frequency = config_.frequency;
  options.max_stack_depth = config_.max_stack_depth;
  std::string why_not_perf;
  if (Status s = openSampler(config_.mode, options, &sampler_, &why_not_perf); !s.isOk())
    return Status(s.code(), "self receiver: " + s.message());
  const std::string mode(sampler_->mode());
  mode_.set(mode == "perf_event" ? 1 : 2);
  if (!why_not_perf.empty())
    settings_.logger->warn("{}; sampling with CPU-time timers and SIGPROF instead", why_not_perf);
  settings_.logger->info("sampling every thread at {} Hz in mode {}, one profile every {}", config_.frequency,
                         mode, config_.interval.str());
  writer_ = std::make_unique<SelfProfileWriter>(config_.attributes, mode);
  stopping_ = false;
  emit_thread_ = std::thread([this] {
    setThreadName("self-emit");
    emitLoop();
  });
  sampler_thread_ = std::thread([this] {
    setThreadName("self-sampler");
    samplerLoop();
  });
  return Status::ok();
}

void SelfReceiver::shutdown(Deadline) {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  ready_cv_.notify_all();
  if (sampler_thread_.joinable()) sampler_thread_.join();
  if (emit_thread_.joinable()) emit_thread_.join();
  sampler_.reset();  // timers deleted, perf events closed
}

void SelfReceiver::samplerLoop() {
  auto next_scan = Clock::now(), next_emit = Clock::now() + config_.interval.value;
  SampleSet pending;
  std::unordered_map<int32_t, std::string> names;
  std::vector<ThreadId> ids;
  uint64_t cpu_seen = threadCpuNs();
  while (!stopping_) {
    if (Clock::now() >= next_scan) {
      ids.clear();
      for (ThreadInfo& t : listThreads()) {
        ids.push_back(t.id);
        names[t.id.tid] = std::move(t.name);  // exited threads keep theirs until the interval is sent
      }
      sampler_->track(ids);
      threads_.set(static_cast<int64_t>(sampler_->tracked()));
      next_scan = Clock::now() + config_.thread_scan_interval.value;
    }
    sampler_->collect(kDrainEvery, &pending);
    if (Clock::now() >= next_emit) {
      handOver(pending, names);
      std::unordered_map<int32_t, std::string> live;
      for (const ThreadId& t : ids) live[t.tid] = names[t.tid];
      names.swap(live);
      next_emit += config_.interval.value;
    }
    const uint64_t cpu = threadCpuNs();
    own_cpu_ns_.add(cpu - cpu_seen);
    cpu_seen = cpu;
  }
}

void SelfReceiver::handOver(SampleSet& samples, const std::unordered_map<int32_t, std::string>& names) {
  {
    std::lock_guard lock(mu_);
    if (!has_ready_) {
      ready_ = std::move(samples);
    } else if (ready_.records.size() + samples.records.size() <= kMaxPendingSamples) {
      ready_.append(samples);  // the emit thread is still busy with the previous interval
    } else {
      ready_.lost += samples.records.size() + samples.lost;
    }
    for (const auto& [tid, name] : names) ready_names_[tid] = name;
    has_ready_ = true;
  }
  samples.clear();
  ready_cv_.notify_one();
}

void SelfReceiver::emitLoop() {
  uint64_t cpu_seen = threadCpuNs();
  for (;;) {
    SampleSet samples;
    std::unordered_map<int32_t, std::string> names;
    {
      std::unique_lock lock(mu_);
      ready_cv_.wait(lock, [this] { return has_ready_ || stopping_; });
      if (stopping_) return;
      samples = std::move(ready_);
      names.swap(ready_names_);
      ready_.clear();
      has_ready_ = false;
    }
    samples_.add(samples.records.size());
    lost_.add(samples.lost);
    HeapFigures heap;
    if (config_.heap) {
      heap = readHeap();
      heap_in_use_.set(static_cast<int64_t>(heap.in_use_bytes));
      heap_arena_.set(static_cast<int64_t>(heap.arena_bytes));
      heap_mmap_.set(static_cast<int64_t>(heap.mmap_bytes));
      rss_.set(static_cast<int64_t>(heap.rss_bytes));
    }
    Batch batch(writer_->write(samples, names, config_.heap ? &heap : nullptr));
    if (!batch.empty()) {
      // One batch per interval: a refusal (backpressure) drops this interval, the next one follows.
      if (Status s = next_->consume(std::move(batch)); !s.isOk())
        settings_.logger->warn("the pipeline refused this interval's profile: {}", s.message());
    }
    const uint64_t cpu = threadCpuNs();
    own_cpu_ns_.add(cpu - cpu_seen);
    cpu_seen = cpu;
  }
}

}  // namespace proflow::receivers::self
