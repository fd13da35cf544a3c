// A real `nats-server -js` on a loopback port with its store in a temp dir, for tests. stop() and
// start() again keep port and store, as a broker restart does.
#pragma once

#include <sys/types.h>

#include <string>

#include "tests/support/temp_dir.h"

namespace proflow::testing {

// What a secured server demands of its clients: a user and password, and TLS (with this
// certificate and key) on every connection. Empty fields: no such demand.
struct NatsServerSecurity {
  std::string user, password;
  std::string cert_file, key_file;
};

class NatsServer {
 public:
  explicit NatsServer(NatsServerSecurity security = {});  // started; check ok()
  ~NatsServer();
  NatsServer(const NatsServer&) = delete;
  NatsServer& operator=(const NatsServer&) = delete;

  bool ok() const { return pid_ > 0; }
  bool start();
  void kill();  // SIGKILL
  std::string url() const { return "nats://127.0.0.1:" + std::to_string(port_); }
  std::string log() const;

 private:
  TempDir dir_;
  NatsServerSecurity security_;
  int port_;
  pid_t pid_ = -1;
};

}  // namespace proflow::testing
