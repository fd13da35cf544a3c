#include "core/status/last_errors.h"

#include <map>
#include <mutex>

#include <spdlog/sinks/base_sink.h>
#include <spdlog/spdlog.h>

namespace proflow::status {
namespace {

constexpr size_t kMaxLoggers = 1024;
constexpr size_t kMaxMessage = 1024;

class LastErrorSink final : public spdlog::sinks::base_sink<std::mutex> {
 public:
  std::optional<LastError> find(const std::string& name) {
    std::lock_guard lock(mutex_);
    auto it = last_.find(name);
    if (it == last_.end()) return std::nullopt;
    return it->second;
  }

 protected:
  void sink_it_(const spdlog::details::log_msg& msg) override {
    if (msg.level < spdlog::level::warn) return;
    std::string name(msg.logger_name.data(), msg.logger_name.size());
    if (!last_.count(name) && last_.size() >= kMaxLoggers) return;
    std::string text(msg.payload.data(), std::min(msg.payload.size(), kMaxMessage));
    last_[std::move(name)] = LastError{std::move(text), msg.time};
  }
  void flush_() override {}

 private:
  std::map<std::string, LastError> last_;
};

const std::shared_ptr<LastErrorSink>& sink() {
  static const auto s = std::make_shared<LastErrorSink>();
  return s;
}

}  // namespace

void installLastErrorSink() {
  static std::mutex mu;
  std::lock_guard lock(mu);
  auto logger = spdlog::default_logger();
  for (const auto& s : logger->sinks())
    if (s == sink()) return;
  logger->sinks().push_back(sink());
}

std::optional<LastError> lastError(const std::string& kind, const std::string& id) {
  return sink()->find(kind + "/" + id);
}

}  // namespace proflow::status
