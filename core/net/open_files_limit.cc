#include "core/net/open_files_limit.h"

#include <sys/resource.h>

namespace proflow::net {

OpenFilesLimit raiseOpenFilesLimit() {
  OpenFilesLimit r;
  rlimit lim{};
  if (getrlimit(RLIMIT_NOFILE, &lim) != 0) {
    r.ok = false;
    return r;
  }
  r.before = r.after = lim.rlim_cur;
  if (lim.rlim_cur >= lim.rlim_max) return r;
  rlimit raised = lim;
  raised.rlim_cur = lim.rlim_max;
  if (setrlimit(RLIMIT_NOFILE, &raised) != 0) {
    r.ok = false;
    return r;
  }
  r.after = raised.rlim_cur;
  return r;
}

}  // namespace proflow::net
