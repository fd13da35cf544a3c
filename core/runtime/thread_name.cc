#include "core/runtime/thread_name.h"

#include <pthread.h>

#include <string>

namespace proflow {

namespace {
constexpr size_t kMaxName = 15;  // TASK_COMM_LEN - 1
}

void setThreadName(std::string_view name) {
  const std::string cut(name.substr(0, kMaxName));
  pthread_setname_np(pthread_self(), cut.c_str());
}

void setThreadName(std::string_view prefix, std::string_view id, int index) {
  const std::string suffix = index >= 0 ? "-" + std::to_string(index) : std::string();
  std::string name(prefix);
  const size_t room = kMaxName > name.size() + suffix.size() ? kMaxName - name.size() - suffix.size() : 0;
  name.append(id.substr(0, room));
  name.append(suffix);
  setThreadName(name);
}

}  // namespace proflow
