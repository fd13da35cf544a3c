#include "core/exporterhelper/persistent_store.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/flat/flat_decode.h"
#include "core/flat/flat_encode.h"

namespace proflow::exporterhelper {
namespace fs = std::filesystem;
namespace {

constexpr const char* kSuffix = ".otlp";

std::string errnoText() { return std::strerror(errno); }

// "00000000000000000042.otlp" -> 42; false for anything else in the directory.
bool parseName(const std::string& name, uint64_t* seq) {
  if (name.size() != 20 + std::strlen(kSuffix) || name.compare(20, std::string::npos, kSuffix) != 0) return false;
  uint64_t v = 0;
  for (size_t i = 0; i < 20; ++i) {
    if (name[i] < '0' || name[i] > '9') return false;
    v = v * 10 + static_cast<uint64_t>(name[i] - '0');
  }
  *seq = v;
  return true;
}

Status writeAll(int fd, const std::string& data, const std::string& path) {
  size_t done = 0;
  while (done < data.size()) {
    ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Status::unavailable("persistent queue: cannot write " + path + ": " + errnoText());
    done += static_cast<size_t>(n);
  }
  return Status::ok();
}

}  // namespace

PersistentStore::~PersistentStore() {
  if (lock_fd_ >= 0) ::close(lock_fd_);  // releases the flock
}

std::string PersistentStore::pathOf(uint64_t seq) const {
  char name[32];
  std::snprintf(name, sizeof name, "%020llu", static_cast<unsigned long long>(seq));
  return dir_ + "/" + name + kSuffix;
}

Status PersistentStore::open(std::vector<uint64_t>* leftover) {
  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (ec) return Status::invalid("persistent queue: cannot create directory " + dir_ + ": " + ec.message());
  const std::string lock_path = dir_ + "/lock";
  lock_fd_ = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (lock_fd_ < 0) return Status::invalid("persistent queue: cannot open " + lock_path + ": " + errnoText());
  if (::flock(lock_fd_, LOCK_EX | LOCK_NB) != 0) {
    ::close(lock_fd_);
    lock_fd_ = -1;
    return Status::invalid("persistent queue: " + dir_ + " is in use by another process (each exporter of each "
                           "daemon needs its own queue directory)");
  }
  leftover->clear();
  for (const auto& entry : fs::directory_iterator(dir_, ec)) {
    const std::string name = entry.path().filename().string();
    uint64_t seq;
    if (parseName(name, &seq)) {
      leftover->push_back(seq);
    } else if (name.ends_with(".tmp")) {
      fs::remove(entry.path(), ec);  // a write the previous process never finished (never acknowledged)
    }
  }
  if (ec) return Status::invalid("persistent queue: cannot list " + dir_ + ": " + ec.message());
  std::sort(leftover->begin(), leftover->end());
  next_seq_ = leftover->empty() ? 1 : leftover->back() + 1;
  return Status::ok();
}

Status PersistentStore::append(const Batch& batch, uint64_t* seq) {
  const std::string data = flat::encode(batch.data());  // OTLP wire bytes, exact size
  *seq = next_seq_.fetch_add(1);
  const std::string path = pathOf(*seq), tmp = path + ".tmp";
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) return Status::unavailable("persistent queue: cannot create " + tmp + ": " + errnoText());
  Status s = writeAll(fd, data, tmp);
  if (s.isOk() && fsync_ && ::fsync(fd) != 0) s = Status::unavailable("persistent queue: fsync " + tmp + ": " + errnoText());
  ::close(fd);
  if (s.isOk() && ::rename(tmp.c_str(), path.c_str()) != 0)
    s = Status::unavailable("persistent queue: cannot rename " + tmp + ": " + errnoText());
  if (!s.isOk()) ::unlink(tmp.c_str());
  return s;
}

Status PersistentStore::load(uint64_t seq, Batch* batch) {
  const std::string path = pathOf(seq);
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  auto data = std::make_shared<flat::Batch>();
  flat::DecodeOptions options;
  options.validate = false;        // written by this queue from an accepted batch
  options.max_entries = SIZE_MAX;  // the file's size already bounds it
  if (!in || !flat::decode(bytes.str(), data.get(), options).request.isOk()) {
    std::error_code ec;
    fs::rename(path, path + ".corrupt", ec);
    return Status::invalid("persistent queue: " + path + " cannot be read back as an OTLP request; moved to " +
                           path + ".corrupt");
  }
  *batch = Batch(std::shared_ptr<const flat::Batch>(std::move(data)));
  return Status::ok();
}

void PersistentStore::remove(uint64_t seq) { ::unlink(pathOf(seq).c_str()); }

}  // namespace proflow::exporterhelper
