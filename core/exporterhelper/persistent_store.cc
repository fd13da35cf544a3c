#include "core/exporterhelper/persistent_store.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "core/exporterhelper/queue_record.h"
#include "core/flat/flat_decode.h"
#include "core/flat/flat_encode.h"
#include "core/util/regular_file.h"

namespace proflow::exporterhelper {
namespace fs = std::filesystem;
namespace {

constexpr const char* kSuffix = ".batch";
constexpr const char* kLegacySuffix = ".otlp";
constexpr size_t kNameDigits = 20;

// What one decode of a record may allocate: the receivers' default in-flight budget, or four times
// the record when it is larger. A few MB of empty profiles would otherwise ask for gigabytes.
size_t decodeBudget(size_t payload_bytes) { return std::max<size_t>(size_t{512} << 20, 4 * payload_bytes); }

std::string errnoText() { return std::strerror(errno); }

// "00000000000000000042<suffix>" -> 42; false for anything else in the directory.
bool parseName(const std::string& name, const char* suffix, uint64_t* seq) {
  if (name.size() != kNameDigits + std::strlen(suffix) || name.compare(kNameDigits, std::string::npos, suffix) != 0)
    return false;
  uint64_t v = 0;
  for (size_t i = 0; i < kNameDigits; ++i) {
    if (name[i] < '0' || name[i] > '9') return false;
    v = v * 10 + static_cast<uint64_t>(name[i] - '0');
  }
  *seq = v;
  return true;
}

std::string nameOf(uint64_t seq, const char* suffix) {
  char digits[32];
  std::snprintf(digits, sizeof digits, "%020llu", static_cast<unsigned long long>(seq));
  return digits + std::string(suffix);
}

Status writeAll(QueueFileOps& ops, int fd, std::string_view data, const std::string& path) {
  while (!data.empty()) {
    const ssize_t n = ops.write(fd, data.data(), data.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Status::unavailable("persistent queue: cannot write " + path + ": " + errnoText());
    data.remove_prefix(static_cast<size_t>(n));
  }
  return Status::ok();
}

// The lock file is opened without following a link or waiting on a FIFO put in its place.
Status openLockFile(const std::string& path, int* fd) {
  *fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0600);
  if (*fd < 0) return Status::invalid("persistent queue: cannot open " + path + ": " + errnoText());
  struct stat st {};
  if (::fstat(*fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(*fd);
    *fd = -1;
    return Status::invalid("persistent queue: " + path + " is not a regular file");
  }
  return Status::ok();
}

}  // namespace

PersistentStore::PersistentStore(std::string directory, bool fsync, std::shared_ptr<QueueFileOps> ops)
    : dir_(std::move(directory)), fsync_(fsync), ops_(std::move(ops)) {}

PersistentStore::~PersistentStore() {
  if (lock_fd_ >= 0) ::close(lock_fd_);  // releases the flock
}

std::string PersistentStore::pathOf(uint64_t seq) const {
  return dir_ + "/" + nameOf(seq, legacy_.count(seq) ? kLegacySuffix : kSuffix);
}

Status PersistentStore::open(std::vector<uint64_t>* leftover) {
  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (ec) return Status::invalid("persistent queue: cannot create directory " + dir_ + ": " + ec.message());
  if (Status s = openLockFile(dir_ + "/lock", &lock_fd_); !s.isOk()) return s;
  if (::flock(lock_fd_, LOCK_EX | LOCK_NB) != 0) {
    ::close(lock_fd_);
    lock_fd_ = -1;
    return Status::invalid("persistent queue: " + dir_ + " is in use by another process (each exporter of each "
                           "daemon needs its own queue directory)");
  }
  leftover->clear();
  legacy_.clear();
  for (const auto& entry : fs::directory_iterator(dir_, ec)) {
    const std::string name = entry.path().filename().string();
    uint64_t seq;
    if (parseName(name, kSuffix, &seq)) {
      leftover->push_back(seq);
    } else if (parseName(name, kLegacySuffix, &seq)) {
      leftover->push_back(seq);
      legacy_.insert(seq);
    } else if (name.ends_with(".tmp")) {
      std::error_code rm;
      fs::remove(entry.path(), rm);  // a write the previous process never finished (never acknowledged)
    }
  }
  if (ec) return Status::invalid("persistent queue: cannot list " + dir_ + ": " + ec.message());
  std::sort(leftover->begin(), leftover->end());
  leftover->erase(std::unique(leftover->begin(), leftover->end()), leftover->end());
  next_seq_ = leftover->empty() ? 1 : leftover->back() + 1;
  return Status::ok();
}

Status PersistentStore::writeRecord(const std::string& tmp, const std::string& payload) {
  const int fd = ops_->open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) return Status::unavailable("persistent queue: cannot create " + tmp + ": " + errnoText());
  Status s = writeAll(*ops_, fd, recordHeader(payload), tmp);
  if (s.isOk()) s = writeAll(*ops_, fd, payload, tmp);
  if (s.isOk() && fsync_ && ops_->fsync(fd) != 0)
    s = Status::unavailable("persistent queue: fsync " + tmp + ": " + errnoText());
  // close() reports delayed write errors (NFS, quotas): a batch is acknowledged only when it is clean.
  if (ops_->close(fd) != 0 && s.isOk()) s = Status::unavailable("persistent queue: close " + tmp + ": " + errnoText());
  return s;
}

// A rename is durable only once the directory holding it is: without this an acknowledged batch
// could vanish with a power loss although its bytes were fsync'd.
Status PersistentStore::syncDirectory() {
  const int fd = ops_->open(dir_, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
  if (fd < 0) return Status::unavailable("persistent queue: cannot open directory " + dir_ + ": " + errnoText());
  Status s;
  if (ops_->fsync(fd) != 0) s = Status::unavailable("persistent queue: fsync directory " + dir_ + ": " + errnoText());
  ops_->close(fd);
  return s;
}

Status PersistentStore::append(const Batch& batch, uint64_t* seq) {
  // The request metadata goes with the data: a tenant's header is still on it after a restart.
  const std::string payload = recordPayloadOf(batch.metadata().get(), flat::encode(batch.data()));
  if (payload.size() > kMaxPersistedBatchBytes)
    return Status::tooLarge("persistent queue: batch of " + std::to_string(payload.size()) +
                            " bytes is larger than the " + std::to_string(kMaxPersistedBatchBytes) +
                            " a queue file may hold; make batches smaller");
  *seq = next_seq_.fetch_add(1);
  const std::string path = dir_ + "/" + nameOf(*seq, kSuffix), tmp = path + ".tmp";
  Status s = writeRecord(tmp, payload);
  if (!s.isOk()) {
    ops_->unlink(tmp);
    return s;
  }
  if (ops_->rename(tmp, path) != 0) {
    s = Status::unavailable("persistent queue: cannot rename " + tmp + ": " + errnoText());
    ops_->unlink(tmp);
    return s;
  }
  if (fsync_) {
    if (s = syncDirectory(); !s.isOk()) ops_->unlink(path);  // not acknowledged: the client sends it again
  }
  return s;
}

Status PersistentStore::moveAside(const std::string& path, const std::string& why) {
  const std::string aside = path + ".corrupt";
  if (ops_->rename(path, aside) != 0)
    return Status::invalid("persistent queue: " + path + ": " + why + "; cannot move it to " + aside + ": " +
                           errnoText());
  return Status::invalid("persistent queue: " + path + ": " + why + "; moved to " + aside);
}

Status PersistentStore::load(uint64_t seq, Batch* batch) {
  std::lock_guard lock(load_mu_);
  const std::string path = pathOf(seq);
  std::string bytes;
  RegularFileRead how;
  how.max_bytes = kRecordHeaderBytes + kMaxPersistedBatchBytes;
  how.follow_symlinks = false;
  if (Status s = readRegularFile(path, how, &bytes); !s.isOk()) {
    if (s.code() == StatusCode::kUnavailable)
      return Status::unavailable("persistent queue: " + path + " " + s.message() + "; left in place");
    return moveAside(path, s.message());
  }
  std::string_view payload = bytes;
  ClientMetadataPtr metadata;
  if (!legacy_.count(seq)) {
    uint8_t version = 0;
    std::string_view record;
    if (Status s = recordPayload(bytes, &record, &version); !s.isOk()) return moveAside(path, s.message());
    if (Status s = splitRecordPayload(record, version, &metadata, &payload); !s.isOk())
      return moveAside(path, s.message());
  }
  auto data = std::make_shared<flat::Batch>();
  flat::DecodeOptions options;  // validate: the checks a receiver applies to a network body
  const size_t budget = decodeBudget(payload.size());
  options.claim_memory = [budget](size_t bytes) {
    if (bytes <= budget) return Status::ok();
    return Status::tooLarge("decoding needs more than " + std::to_string(budget) + " bytes of memory");
  };
  const flat::DecodeResult decoded = flat::decode(payload, data.get(), options);
  if (!decoded.request.isOk())
    return moveAside(path, "not a valid OTLP profiles request: " + decoded.request.message());
  if (decoded.rejected_profiles > 0 || !decoded.profile_errors.empty())
    return moveAside(path, "holds invalid profiles: " +
                               (decoded.profile_errors.empty() ? std::string("?") : decoded.profile_errors.front()));
  *batch = Batch(std::shared_ptr<const flat::Batch>(std::move(data)));
  batch->setMetadata(std::move(metadata));
  return Status::ok();
}

void PersistentStore::remove(uint64_t seq) { ops_->unlink(pathOf(seq)); }

}  // namespace proflow::exporterhelper
