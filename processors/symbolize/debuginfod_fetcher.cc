#include "processors/symbolize/debuginfod_fetcher.h"

#include <dlfcn.h>
#include <elfutils/debuginfod.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>

namespace proflow::symbolize {
namespace {

// libdebuginfod's settings live in the process environment: one fetch at a time.
std::mutex& fetchMutex() {
  static std::mutex mu;
  return mu;
}

using Clock = std::chrono::steady_clock;

// libdebuginfod is loaded on first use rather than linked: it pulls in libcurl, GnuTLS, Kerberos,
// LDAP and ~25 other libraries (about 4 MiB of resident memory) that a daemon without debuginfod
// URLs never needs. (libdw loads it the same way.)
struct DebuginfodApi {
  decltype(&debuginfod_begin) begin = nullptr;
  decltype(&debuginfod_end) end = nullptr;
  decltype(&debuginfod_set_progressfn) set_progressfn = nullptr;
  decltype(&debuginfod_set_user_data) set_user_data = nullptr;
  decltype(&debuginfod_get_user_data) get_user_data = nullptr;
  decltype(&debuginfod_find_executable) find_executable = nullptr;
  decltype(&debuginfod_find_debuginfo) find_debuginfo = nullptr;
  std::string error;  // why loading failed
};

const DebuginfodApi& api() {
  static const DebuginfodApi loaded = [] {
    DebuginfodApi a;
    void* lib = dlopen("libdebuginfod.so.1", RTLD_NOW | RTLD_LOCAL);
    if (lib == nullptr) {
      a.error = std::string("cannot load libdebuginfod.so.1 (install libdebuginfod1): ") + dlerror();
      return a;
    }
    auto sym = [&](auto& fn, const char* name) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(lib, name));
      if (fn == nullptr && a.error.empty()) a.error = std::string("libdebuginfod.so.1 lacks ") + name;
    };
    sym(a.begin, "debuginfod_begin");
    sym(a.end, "debuginfod_end");
    sym(a.set_progressfn, "debuginfod_set_progressfn");
    sym(a.set_user_data, "debuginfod_set_user_data");
    sym(a.get_user_data, "debuginfod_get_user_data");
    sym(a.find_executable, "debuginfod_find_executable");
    sym(a.find_debuginfo, "debuginfod_find_debuginfo");
    return a;
  }();
  return loaded;
}

// Aborts a transfer once its deadline passed (libdebuginfod calls this while it waits on the network).
int progress(debuginfod_client* client, long, long) {
  const auto* deadline = static_cast<const Clock::time_point*>(api().get_user_data(client));
  return deadline != nullptr && Clock::now() > *deadline ? 1 : 0;
}

}  // namespace

DebuginfodFetcher::DebuginfodFetcher(DebuginfodOptions options) : options_(std::move(options)) {}

DebuginfodFetcher::~DebuginfodFetcher() {
  std::lock_guard<std::mutex> lock(fetchMutex());
  if (client_ != nullptr) api().end(client_);
}

void DebuginfodFetcher::applyEnvironment() const {
  std::string urls;
  for (const auto& u : options_.urls) urls += (urls.empty() ? "" : " ") + u;
  setenv("DEBUGINFOD_URLS", urls.c_str(), 1);
  // Whole seconds, at least one: libdebuginfod's timeout unit.
  const long seconds = std::max<long>(1, static_cast<long>((options_.timeout.count() + 999) / 1000));
  setenv("DEBUGINFOD_TIMEOUT", std::to_string(seconds).c_str(), 1);
  setenv("DEBUGINFOD_MAXTIME", std::to_string(seconds).c_str(), 1);
  if (options_.max_size > 0) setenv("DEBUGINFOD_MAXSIZE", std::to_string(options_.max_size).c_str(), 1);
  else unsetenv("DEBUGINFOD_MAXSIZE");
  if (!options_.cache_dir.empty()) setenv("DEBUGINFOD_CACHE_PATH", options_.cache_dir.c_str(), 1);
}

FetchResult DebuginfodFetcher::fetch(const std::string& hex_build_id, bool executable) {
  FetchResult result;
  if (!enabled()) {
    result.not_found = true;
    result.error = "debuginfod disabled";
    return result;
  }
  const DebuginfodApi& lib = api();
  if (!lib.error.empty()) {
    result.error = lib.error;
    return result;
  }
  std::lock_guard<std::mutex> lock(fetchMutex());
  applyEnvironment();
  if (client_ == nullptr) {
    client_ = lib.begin();
    if (client_ == nullptr) {
      result.error = "debuginfod_begin failed";
      return result;
    }
    lib.set_progressfn(client_, progress);
  }
  Clock::time_point deadline = Clock::now() + options_.timeout;
  lib.set_user_data(client_, &deadline);
  char* path = nullptr;
  const auto* id = reinterpret_cast<const unsigned char*>(hex_build_id.c_str());
  // A length of 0 tells libdebuginfod the id is already a hex string.
  int fd = executable ? lib.find_executable(client_, id, 0, &path) : lib.find_debuginfo(client_, id, 0, &path);
  lib.set_user_data(client_, nullptr);
  if (fd < 0) {
    result.not_found = fd == -ENOENT;
    result.error = std::string("debuginfod: ") + std::strerror(-fd);
    std::free(path);
    return result;
  }
  struct stat st;
  if (fstat(fd, &st) == 0) result.bytes = static_cast<uint64_t>(st.st_size);
  close(fd);
  result.path = path != nullptr ? path : "";
  std::free(path);
  if (result.path.empty()) result.error = "debuginfod returned no path";
  return result;
}

}  // namespace proflow::symbolize
