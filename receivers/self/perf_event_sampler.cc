#include "receivers/self/perf_event_sampler.h"

#include <linux/perf_event.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <fstream>

namespace proflow::receivers::self {

namespace {

const size_t kPage = static_cast<size_t>(sysconf(_SC_PAGESIZE));

int perfEventOpen(perf_event_attr* attr, pid_t tid) {
  return static_cast<int>(syscall(SYS_perf_event_open, attr, tid, -1, -1, PERF_FLAG_FD_CLOEXEC));
}

// The kernel refuses (EOVERFLOW) a sample_max_stack above kernel.perf_event_max_stack.
uint32_t kernelMaxStack() {
  std::ifstream in("/proc/sys/kernel/perf_event_max_stack");
  uint32_t v = 127;
  in >> v;
  return v == 0 ? 127 : v;
}

perf_event_attr makeAttr(const SamplerOptions& o, size_t data_bytes) {
  perf_event_attr a;
  std::memset(&a, 0, sizeof a);
  a.size = sizeof a;
  a.type = PERF_TYPE_SOFTWARE;
  a.config = PERF_COUNT_SW_TASK_CLOCK;  // the thread's CPU time, in ns
  a.sample_period = 1'000'000'000ull / o.frequency;
  a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN;
  a.exclude_kernel = 1;
  a.exclude_hv = 1;
  a.exclude_callchain_kernel = 1;
  a.use_clockid = 1;
  a.clockid = CLOCK_MONOTONIC;
  a.watermark = 1;
  a.wakeup_watermark = static_cast<uint32_t>(data_bytes / 2);
  a.sample_max_stack = static_cast<uint16_t>(std::min(o.max_stack_depth, kernelMaxStack()));
  return a;
}

template <class T>
T load(const unsigned char* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

}  // namespace

struct PerfEventSampler::Event {
  int fd = -1;
  void* ring = MAP_FAILED;
  size_t bytes = 0;
  ~Event() {
    if (ring != MAP_FAILED) munmap(ring, bytes);
    if (fd >= 0) close(fd);
  }
};

Status PerfEventSampler::probe(const SamplerOptions& options) {
  perf_event_attr a = makeAttr(options, 2 * kPage);
  const int fd = perfEventOpen(&a, static_cast<pid_t>(syscall(SYS_gettid)));
  if (fd < 0) {
    const int e = errno;
    return Status::unavailable(std::string("perf_event_open refused: ") + strerrorname_np(e) + " (" +
                               std::strerror(e) + ")");
  }
  close(fd);
  return Status::ok();
}

PerfEventSampler::PerfEventSampler(const SamplerOptions& options)
    : options_(options), data_pages_(options.frequency <= 100 ? 2 : 8) {}

PerfEventSampler::~PerfEventSampler() = default;

void PerfEventSampler::track(const std::vector<ThreadId>& threads) {
  for (auto it = events_.begin(); it != events_.end();)
    it = std::binary_search(threads.begin(), threads.end(), it->first) ? std::next(it) : events_.erase(it);
  const size_t data_bytes = data_pages_ * kPage;
  for (const ThreadId& t : threads) {
    if (events_.count(t)) continue;
    perf_event_attr a = makeAttr(options_, data_bytes);
    auto e = std::make_unique<Event>();
    e->fd = perfEventOpen(&a, t.tid);
    if (e->fd < 0) continue;  // exited meanwhile, or out of files: tried again at the next scan
    e->bytes = kPage + data_bytes;
    e->ring = mmap(nullptr, e->bytes, PROT_READ | PROT_WRITE, MAP_SHARED, e->fd, 0);
    if (e->ring == MAP_FAILED) continue;  // locked-memory limit (perf_event_mlock_kb, RLIMIT_MEMLOCK)
    events_.emplace(t, std::move(e));
  }
}

void PerfEventSampler::collect(std::chrono::milliseconds timeout, SampleSet* out) {
  std::vector<pollfd> fds;
  fds.reserve(events_.size());
  for (const auto& [t, e] : events_) fds.push_back({e->fd, POLLIN, 0});
  if (fds.empty()) {
    timespec ts{static_cast<time_t>(timeout.count() / 1000), static_cast<long>(timeout.count() % 1000) * 1'000'000};
    nanosleep(&ts, nullptr);
    return;
  }
  poll(fds.data(), fds.size(), static_cast<int>(timeout.count()));
  size_t i = 0;
  for (auto it = events_.begin(); it != events_.end(); ++i) {
    drain(*it->second, out);
    // A thread that exited hangs its event up: what it wrote was drained above.
    it = fds[i].revents & (POLLHUP | POLLERR | POLLNVAL) ? events_.erase(it) : std::next(it);
  }
}

void PerfEventSampler::drain(Event& e, SampleSet* out) {
  auto* meta = static_cast<perf_event_mmap_page*>(e.ring);
  const unsigned char* data = static_cast<const unsigned char*>(e.ring) + kPage;
  const uint64_t size = e.bytes - kPage;
  const uint64_t head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
  uint64_t tail = meta->data_tail;
  while (tail + sizeof(perf_event_header) <= head) {
    // Records are 8-byte aligned and the ring a power of two: a header never wraps, a body may.
    const auto h = load<perf_event_header>(data + tail % size);
    if (h.size < sizeof h || h.size > head - tail) break;
    const unsigned char* rec = data + tail % size;
    if (tail % size + h.size > size) {
      wrapped_.resize(h.size);
      const size_t first = size - tail % size;
      std::memcpy(wrapped_.data(), data + tail % size, first);
      std::memcpy(wrapped_.data() + first, data, h.size - first);
      rec = wrapped_.data();
    }
    if (h.type == PERF_RECORD_LOST && h.size >= 24) {
      out->lost += load<uint64_t>(rec + 16);  // {header, id, lost}
    } else if (h.type == PERF_RECORD_SAMPLE && h.size >= 48) {
      // {header, ip, pid, tid, time, period, nr, ips[nr]} (the order of sample_type's bits)
      const uint64_t ip = load<uint64_t>(rec + 8);
      const int32_t tid = load<int32_t>(rec + 20);
      const uint64_t time = load<uint64_t>(rec + 24), period = load<uint64_t>(rec + 32);
      const uint64_t nr = std::min<uint64_t>(load<uint64_t>(rec + 40), (h.size - 48) / 8);
      frames_.clear();
      for (uint64_t k = 0; k < nr && frames_.size() < options_.max_stack_depth; ++k) {
        const uint64_t pc = load<uint64_t>(rec + 48 + 8 * k);
        if (pc >= static_cast<uint64_t>(PERF_CONTEXT_MAX)) continue;  // PERF_CONTEXT_USER and other markers
        frames_.push_back(pc);
      }
      if (frames_.empty()) frames_.push_back(ip);
      out->add(tid, time, static_cast<int64_t>(period), frames_);
    }
    tail += h.size;
  }
  __atomic_store_n(&meta->data_tail, tail, __ATOMIC_RELEASE);
}

}  // namespace proflow::receivers::self
