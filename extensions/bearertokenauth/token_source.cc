#include "extensions/bearertokenauth/token_source.h"

#include <sys/stat.h>

#include <sstream>

#include "core/util/regular_file.h"

namespace proflow::extensions::bearertokenauth {
namespace {

// A token file holds a few lines; anything far larger is not one.
constexpr uint64_t kMaxTokenFileBytes = 1 << 20;

}  // namespace

Tokens parseTokenFile(const std::string& text) {
  Tokens out;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream words(line);
    std::string first;
    if (words >> first) out.push_back(first);
  }
  return out;
}

TokenSource::TokenSource(Tokens fixed) : tokens_(std::make_shared<const Tokens>(std::move(fixed))) {}

TokenSource::~TokenSource() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  stop_.notify_all();
  if (refresher_.joinable()) refresher_.join();
}

Status TokenSource::fromFile(std::string filename, std::unique_ptr<TokenSource>* out,
                             std::chrono::milliseconds interval) {
  std::unique_ptr<TokenSource> src(new TokenSource());
  src->filename_ = std::move(filename);
  src->refreshIfChanged();
  if (!src->tokens_)
    return Status::invalid("cannot read a token from '" + src->filename_ + "' (missing, unreadable or empty)");
  src->refresher_ = std::thread([s = src.get(), interval] { s->refreshLoop(interval); });
  *out = std::move(src);
  return Status::ok();
}

std::shared_ptr<const Tokens> TokenSource::current() const {
  std::lock_guard lock(mu_);
  return tokens_;
}

void TokenSource::refreshLoop(std::chrono::milliseconds interval) {
  std::unique_lock lock(mu_);
  while (!stop_.wait_for(lock, interval, [this] { return stopping_; })) {
    lock.unlock();  // the file is read without the lock: current() never waits for it
    refreshIfChanged();
    lock.lock();
  }
}

void TokenSource::refreshIfChanged() {
  struct stat st {};
  if (::stat(filename_.c_str(), &st) != 0) return;
  const int64_t mtime_ns = static_cast<int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec;
  if (current() && st.st_ino == inode_ && st.st_size == size_ && mtime_ns == mtime_ns_) return;
  // Only a regular file is read, and its open never waits: a FIFO (or device) put in the token
  // file's place would otherwise hold this thread, and the shutdown that joins it, for good.
  std::string text;
  if (!readRegularFile(filename_, {.max_bytes = kMaxTokenFileBytes}, &text).isOk()) return;
  Tokens tokens = parseTokenFile(text);
  if (tokens.empty()) return;
  auto fresh = std::make_shared<const Tokens>(std::move(tokens));
  {
    std::lock_guard lock(mu_);
    tokens_ = std::move(fresh);
  }
  inode_ = st.st_ino;
  size_ = st.st_size;
  mtime_ns_ = mtime_ns;
}

}  // namespace proflow::extensions::bearertokenauth
