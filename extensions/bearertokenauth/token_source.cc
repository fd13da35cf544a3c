#include "extensions/bearertokenauth/token_source.h"

#include <sys/stat.h>

#include <fstream>
#include <sstream>

namespace proflow::extensions::bearertokenauth {
namespace {

constexpr std::chrono::seconds kCheckInterval{1};

int64_t nowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

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

Status TokenSource::fromFile(std::string filename, std::unique_ptr<TokenSource>* out) {
  std::unique_ptr<TokenSource> src(new TokenSource());
  src->filename_ = std::move(filename);
  src->refreshIfChanged();
  if (!src->tokens_)
    return Status::invalid("cannot read a token from '" + src->filename_ + "' (missing, unreadable or empty)");
  *out = std::move(src);
  return Status::ok();
}

std::shared_ptr<const Tokens> TokenSource::current() {
  if (!filename_.empty() && nowNs() >= next_check_ns_.load(std::memory_order_relaxed)) refreshIfChanged();
  std::lock_guard lock(mu_);
  return tokens_;
}

void TokenSource::refreshIfChanged() {
  std::lock_guard lock(mu_);
  next_check_ns_.store(nowNs() + std::chrono::nanoseconds(kCheckInterval).count(), std::memory_order_relaxed);
  struct stat st {};
  if (::stat(filename_.c_str(), &st) != 0) return;
  const int64_t mtime_ns = static_cast<int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec;
  if (tokens_ && st.st_ino == inode_ && st.st_size == size_ && mtime_ns == mtime_ns_) return;
  std::ifstream in(filename_, std::ios::binary);
  if (!in) return;
  std::ostringstream text;
  text << in.rdbuf();
  Tokens tokens = parseTokenFile(text.str());
  if (tokens.empty()) return;
  tokens_ = std::make_shared<const Tokens>(std::move(tokens));
  inode_ = st.st_ino;
  size_ = st.st_size;
  mtime_ns_ = mtime_ns;
}

}  // namespace proflow::extensions::bearertokenauth
