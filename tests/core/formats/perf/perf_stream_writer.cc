#include "tests/core/formats/perf/perf_stream_writer.h"

#include <cstring>

namespace proflow::testing {
namespace {

// Record types, misc bits and perf_event_attr fields as the kernel's perf_event.h defines them.
constexpr uint32_t kComm = 3, kExit = 4, kFork = 7, kSample = 9, kMmap2 = 10, kHeaderAttr = 64;
constexpr uint16_t kMiscUser = 2, kMiscForkExec = 1 << 13;
constexpr uint64_t kSampleIp = 1, kSampleTid = 2, kSampleTime = 4, kSampleCallchain = 32, kSamplePeriod = 256;
constexpr uint64_t kSampleIdAll = 1ull << 18;
constexpr uint64_t kContextUser = static_cast<uint64_t>(-512);
constexpr uint32_t kAttrSize = 128;
constexpr uint64_t kEventId = 7;

template <class T>
void put(std::string& out, T v) {
  char b[sizeof(T)];
  std::memcpy(b, &v, sizeof(T));
  out.append(b, sizeof(T));
}

// A NUL-terminated string padded to 8 bytes, as perf writes names.
void putName(std::string& out, const std::string& name) {
  out += name;
  out.append(8 - name.size() % 8, '\0');
}

}  // namespace

PerfStreamWriter::PerfStreamWriter() {
  out_ = "PERFILE2";
  put<uint64_t>(out_, 16);  // a pipe-mode header is only the magic and its own size
  std::string attr;
  put<uint32_t>(attr, 1);  // PERF_TYPE_SOFTWARE
  put<uint32_t>(attr, kAttrSize);
  put<uint64_t>(attr, 0);  // PERF_COUNT_SW_CPU_CLOCK
  put<uint64_t>(attr, 1'000'000);
  put<uint64_t>(attr, kSampleIp | kSampleTid | kSampleTime | kSamplePeriod | kSampleCallchain);
  put<uint64_t>(attr, 0);  // read_format
  put<uint64_t>(attr, kSampleIdAll);
  attr.resize(kAttrSize, '\0');
  put<uint64_t>(attr, kEventId);
  put<uint32_t>(out_, kHeaderAttr);
  put<uint16_t>(out_, 0);
  put<uint16_t>(out_, static_cast<uint16_t>(8 + attr.size()));
  out_ += attr;
}

void PerfStreamWriter::record(uint32_t type, uint16_t misc, const std::string& body, uint32_t pid, uint32_t tid,
                              uint64_t time) {
  put<uint32_t>(out_, type);
  put<uint16_t>(out_, misc);
  put<uint16_t>(out_, static_cast<uint16_t>(8 + body.size() + (type == kSample ? 0 : 16)));
  out_ += body;
  if (type == kSample) return;
  put<uint32_t>(out_, pid);  // sample_id: pid/tid, time
  put<uint32_t>(out_, tid);
  put<uint64_t>(out_, time);
}

void PerfStreamWriter::comm(uint32_t pid, uint32_t tid, const std::string& name, uint64_t time) {
  std::string body;
  put(body, pid);
  put(body, tid);
  putName(body, name);
  record(kComm, 0, body, pid, tid, time);
}

void PerfStreamWriter::fork(uint32_t pid, uint32_t ppid, uint64_t time, bool synthesized) {
  std::string body;
  for (uint32_t v : {pid, ppid, pid, ppid}) put(body, v);  // pid, ppid, tid, ptid
  put(body, time);
  record(kFork, synthesized ? kMiscForkExec : 0, body, pid, pid, time);
}

void PerfStreamWriter::exit(uint32_t pid, uint32_t ppid, uint64_t time) {
  std::string body;
  for (uint32_t v : {pid, ppid, pid, ppid}) put(body, v);
  put(body, time);
  record(kExit, 0, body, pid, pid, time);
}

void PerfStreamWriter::mmap2(uint32_t pid, uint64_t start, uint64_t len, uint64_t pgoff, const std::string& file,
                             uint64_t time) {
  std::string body;
  put(body, pid);
  put(body, pid);
  put(body, start);
  put(body, len);
  put(body, pgoff);
  put<uint32_t>(body, 0);  // maj, min, ino, ino_generation
  put<uint32_t>(body, 0);
  put<uint64_t>(body, 0);
  put<uint64_t>(body, 0);
  put<uint32_t>(body, 5);  // PROT_READ | PROT_EXEC
  put<uint32_t>(body, 2);  // MAP_PRIVATE
  putName(body, file);
  record(kMmap2, kMiscUser, body, pid, pid, time);
}

void PerfStreamWriter::sample(uint32_t pid, const std::vector<uint64_t>& callchain, uint64_t time) {
  std::string body;
  put(body, callchain.empty() ? 0 : callchain.front());
  put(body, pid);
  put(body, pid);
  put(body, time);
  put<uint64_t>(body, 1'000'000);
  put<uint64_t>(body, callchain.size() + 1);
  put(body, kContextUser);
  for (uint64_t ip : callchain) put(body, ip);
  record(kSample, kMiscUser, body, pid, pid, time);
}

}  // namespace proflow::testing
