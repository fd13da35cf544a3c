// broker_message::decode never throws: whatever fails while a message is decoded, memory included,
// is a refusal the broker receivers count as poison, not an exception on their consumer thread
// (which would end the daemon, and every replica that fetched the message after it).
#include "core/brokers/broker_message.h"

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <string>

namespace proflow {
namespace {

std::string varint(uint64_t v) {
  std::string out;
  for (; v >= 0x80; v >>= 7) out += static_cast<char>((v & 0x7f) | 0x80);
  return out + static_cast<char>(v);
}

std::string lengthDelimited(int number, const std::string& bytes) {
  return varint(static_cast<uint64_t>(number) << 3 | 2) + varint(bytes.size()) + bytes;
}

// A valid request of one profile with `samples` empty samples: 2 bytes each on the wire, many more
// once decoded into columns.
std::string manySamples(size_t samples) {
  std::string profile;
  profile.reserve(samples * 2);
  for (size_t i = 0; i < samples; ++i) profile += std::string("\x12\x00", 2);
  return lengthDelimited(1, lengthDelimited(2, lengthDelimited(2, profile)));
}

// Bytes of address space this process has mapped now.
uint64_t mappedBytes() {
  uint64_t pages = 0;
  std::ifstream("/proc/self/statm") >> pages;
  return pages * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
}

TEST(BrokerMessageDecode, RunningOutOfMemoryIsARefusalNotACrash) {
#if defined(PROFLOW_SANITIZE)
  GTEST_SKIP() << "sanitizer builds reserve far more address space than the limit this test sets";
#endif
  const std::string body = manySamples(4u << 20);  // 8 MiB
  // Decoded within the limit it is a valid request: what the child's refusal is due to is the limit.
  const broker_message::Decoded unlimited = broker_message::decode(body, "otlp_proto", 64u << 20);
  ASSERT_TRUE(unlimited.status.isOk()) << unlimited.status.message();
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    // 16 MiB more address space than mapped now: far less than the decoded columns need.
    const rlim_t cap = mappedBytes() + (16u << 20);
    const rlimit limit{cap, cap};
    if (setrlimit(RLIMIT_AS, &limit) != 0) _exit(10);
    const broker_message::Decoded d = broker_message::decode(body, "otlp_proto", 64u << 20);
    if (d.status.isOk()) _exit(11);
    _exit(d.status.message().find("could not be decoded") != std::string::npos ? 0 : 12);
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status)) << "the decode ended the process with signal " << WTERMSIG(status);
  EXPECT_EQ(WEXITSTATUS(status), 0) << "10: setrlimit failed, 11: decoded within the limit, 12: another refusal";
}

}  // namespace
}  // namespace proflow
