// Figures for the server's authentication and body-admission paths, against a real proflow child:
//   (a) bcrypt flood: 8 connections send a wrong password for a bcrypt user as fast as they are
//       answered; another (unauthenticated) listener's request latency, p50 / p99, against a quiet
//       baseline;
//   (b) the time to refuse a known user's wrong password vs an unknown user's, median of each;
//   (c) four connections declare `Content-Length: 64 MiB` and send a byte every 5 s while normal
//       OTLP requests arrive over HTTP and gRPC: how many of those were accepted.
//
//   proflow_auth_bench <proflow binary> [seconds per phase] [flood connections, default 8]
#include <arpa/inet.h>
#include <crypt.h>
#include <grpcpp/generic/generic_stub.h>
#include <grpcpp/grpcpp.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <future>
#include <string>
#include <thread>
#include <vector>

#include "core/net/http_types.h"
#include "tests/support/profile_builder.h"

namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

constexpr int kAuthPort = 14451, kOpenPort = 14452, kGrpcPort = 14453, kTelemetryPort = 14459;

std::string base64(const std::string& in) {
  static const char* a = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  size_t i = 0;
  for (; i + 2 < in.size(); i += 3) {
    unsigned v = (unsigned char)in[i] << 16 | (unsigned char)in[i + 1] << 8 | (unsigned char)in[i + 2];
    out += {a[v >> 18], a[(v >> 12) & 63], a[(v >> 6) & 63], a[v & 63]};
  }
  if (i + 1 == in.size()) {
    unsigned v = (unsigned char)in[i] << 16;
    out += {a[v >> 18], a[(v >> 12) & 63], '=', '='};
  } else if (i + 2 == in.size()) {
    unsigned v = (unsigned char)in[i] << 16 | (unsigned char)in[i + 1] << 8;
    out += {a[v >> 18], a[(v >> 12) & 63], a[(v >> 6) & 63], '='};
  }
  return out;
}

// A blocking keep-alive HTTP/1.1 connection to 127.0.0.1.
class Conn {
 public:
  explicit Conn(int port) {
    fd_ = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<uint16_t>(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
      close(fd_);
      fd_ = -1;
    }
    int one = 1;
    if (fd_ >= 0) setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  }
  ~Conn() {
    if (fd_ >= 0) close(fd_);
  }
  bool ok() const { return fd_ >= 0; }
  bool send(const std::string& s) {
    size_t off = 0;
    while (off < s.size()) {
      ssize_t n = ::send(fd_, s.data() + off, s.size() - off, MSG_NOSIGNAL);
      if (n <= 0) return false;
      off += static_cast<size_t>(n);
    }
    return true;
  }
  // The status of the next response (its body read past), 0 when the connection ended.
  int read() {
    for (;;) {
      size_t end = buf_.find("\r\n\r\n");
      if (end != std::string::npos) {
        int status = std::atoi(buf_.c_str() + 9);
        size_t length = 0;
        std::string head = buf_.substr(0, end);
        for (auto& c : head) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        if (size_t p = head.find("content-length:"); p != std::string::npos) length = std::strtoul(head.c_str() + p + 15, nullptr, 10);
        while (buf_.size() < end + 4 + length)
          if (!fill()) return 0;
        buf_.erase(0, end + 4 + length);
        return status;
      }
      if (!fill()) return 0;
    }
  }

 private:
  bool fill() {
    char tmp[16384];
    ssize_t n = recv(fd_, tmp, sizeof tmp, 0);
    if (n <= 0) return false;
    buf_.append(tmp, static_cast<size_t>(n));
    return true;
  }
  int fd_ = -1;
  std::string buf_;
};

std::string post(const std::string& body, const std::string& extra = "") {
  return "POST /v1development/profiles HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-protobuf\r\n" + extra +
         "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

std::string basic(const std::string& user, const std::string& password) {
  return "Authorization: Basic " + base64(user + ":" + password) + "\r\n";
}

double ms(Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<size_t>(p * static_cast<double>(v.size())))];
}

std::string bcrypt(const std::string& password, int cost) {
  char setting[CRYPT_GENSALT_OUTPUT_SIZE];
  if (!crypt_gensalt_rn("$2y$", static_cast<unsigned long>(cost), nullptr, 0, setting, sizeof setting)) return "";
  struct crypt_data data {};
  return crypt_r(password.c_str(), setting, &data);
}

// Latencies of one request at a time on a fresh keep-alive connection, every 20 ms, for `seconds`.
std::vector<double> probe(int port, const std::string& body, int seconds) {
  Conn c(port);
  std::vector<double> out;
  const auto until = Clock::now() + std::chrono::seconds(seconds);
  while (Clock::now() < until) {
    auto begin = Clock::now();
    if (!c.send(post(body)) || c.read() != 200) {
      std::fprintf(stderr, "probe request failed\n");
      break;
    }
    out.push_back(ms(Clock::now() - begin));
    std::this_thread::sleep_for(milliseconds(20));
  }
  return out;
}

void floodAndProbe(const std::string& body, int seconds, int connections) {
  auto quiet = probe(kOpenPort, body, std::max(2, seconds / 4));
  std::printf("(a) quiet: other listener p50 %.2f ms, p99 %.2f ms (%zu requests)\n", percentile(quiet, 0.5),
              percentile(quiet, 0.99), quiet.size());
  std::atomic<bool> stop{false};
  std::atomic<long> unauthorized{0}, unavailable{0}, other{0};
  std::vector<std::thread> flood;
  for (int i = 0; i < connections; ++i)
    flood.emplace_back([&] {
      Conn c(kAuthPort);
      const std::string req = post("", basic("alice", "not-her-password"));
      while (!stop) {
        if (!c.send(req)) break;
        int s = c.read();
        (s == 401 ? unauthorized : s == 503 ? unavailable : other)++;
        if (s == 0) break;
      }
    });
  std::this_thread::sleep_for(milliseconds(500));  // the flood is on
  auto loaded = probe(kOpenPort, body, seconds);
  stop = true;
  for (auto& t : flood) t.join();
  std::printf("(a) bcrypt flood (%d connections, wrong password): other listener p50 %.2f ms, p99 %.2f ms, max %.2f ms "
              "(%zu requests); flood answered 401 x %ld, 503 x %ld, other x %ld\n",
              connections, percentile(loaded, 0.5), percentile(loaded, 0.99), percentile(loaded, 1.0), loaded.size(),
              unauthorized.load(), unavailable.load(), other.load());
}

void knownVersusUnknown(int rounds) {
  auto time = [&](const std::string& user) {
    std::vector<double> v;
    Conn c(kAuthPort);
    for (int i = 0; i < rounds; ++i) {
      auto begin = Clock::now();
      c.send(post("", basic(user, "guess-" + std::to_string(i))));
      if (c.read() != 401) std::fprintf(stderr, "expected 401 for %s\n", user.c_str());
      v.push_back(ms(Clock::now() - begin));
    }
    return percentile(v, 0.5);
  };
  time("alice");  // warm
  const double known = time("alice"), unknown = time("nobody");
  std::printf("(b) refusal time, median of %d: known user %.2f ms, unknown user %.2f ms, ratio %.2f\n", rounds, known,
              unknown, std::max(known, unknown) / std::min(known, unknown));
}

void stalledUploads(const std::string& body, int seconds) {
  std::atomic<bool> stop{false};
  std::vector<std::thread> stalled;
  std::atomic<int> stalled_open{0};
  for (int i = 0; i < 4; ++i)
    stalled.emplace_back([&] {
      Conn c(kOpenPort);
      if (!c.send("POST /v1development/profiles HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-protobuf\r\n"
                  "Content-Length: 67108864\r\n\r\n"))
        return;
      ++stalled_open;
      while (!stop) {
        if (!c.send("x")) break;
        for (int t = 0; t < 50 && !stop; ++t) std::this_thread::sleep_for(milliseconds(100));
      }
    });
  std::this_thread::sleep_for(milliseconds(500));
  long http_ok = 0, http_total = 0, grpc_ok = 0, grpc_total = 0;
  auto channel = grpc::CreateChannel("127.0.0.1:" + std::to_string(kGrpcPort), grpc::InsecureChannelCredentials());
  grpc::GenericStub stub(channel);
  const auto until = Clock::now() + std::chrono::seconds(seconds);
  while (Clock::now() < until) {
    {
      Conn c(kOpenPort);
      ++http_total;
      if (c.send(post(body))) {
        int s = c.read();
        if (s >= 200 && s < 300) ++http_ok;
        else std::fprintf(stderr, "HTTP request answered %d\n", s);
      }
    }
    {
      grpc::ClientContext ctx;
      ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
      grpc::Slice slice(body);
      grpc::ByteBuffer request(&slice, 1), response;
      std::promise<grpc::Status> answer;
      stub.UnaryCall(&ctx, "/opentelemetry.proto.collector.profiles.v1development.ProfilesService/Export",
                     grpc::StubOptions(), &request, &response, [&](grpc::Status s) { answer.set_value(s); });
      ++grpc_total;
      grpc::Status s = answer.get_future().get();
      if (s.ok()) ++grpc_ok;
      else std::fprintf(stderr, "gRPC call answered %d %s\n", s.error_code(), s.error_message().c_str());
    }
    std::this_thread::sleep_for(milliseconds(100));
  }
  stop = true;
  for (auto& t : stalled) t.join();
  std::printf("(c) %d uploads declaring 64 MiB, a byte every 5 s, for %d s: HTTP %ld/%ld accepted, gRPC %ld/%ld "
              "accepted\n",
              stalled_open.load(), seconds, http_ok, http_total, grpc_ok, grpc_total);
}

bool healthy() {
  Conn c(kTelemetryPort);
  return c.ok() && c.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n") && c.read() == 200;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s <proflow binary> [seconds per phase] [flood connections]\n", argv[0]);
    return 2;
  }
  const int seconds = argc > 2 ? std::atoi(argv[2]) : 20;
  const int flood_connections = argc > 3 ? std::atoi(argv[3]) : 8;
  char dir_template[] = "/tmp/proflow-auth-bench-XXXXXX";
  const std::string dir = mkdtemp(dir_template);
  const std::string config = dir + "/proflow.yaml";
  std::ofstream(config) << "extensions:\n"
                           "  basicauth/server: { htpasswd: { inline: \"alice:"
                        << bcrypt("wonderland", 10) << "\\n\" } }\n"
                        << "receivers:\n"
                           "  otlp/auth: { protocols: { http: { endpoint: 127.0.0.1:" << kAuthPort
                        << ", auth: { authenticator: basicauth/server } } } }\n"
                           "  otlp: { protocols: { http: { endpoint: 127.0.0.1:" << kOpenPort
                        << " }, grpc: { endpoint: 127.0.0.1:" << kGrpcPort << " } } }\n"
                        << "exporters: { debug: { verbosity: basic } }\n"
                           "service:\n"
                           "  extensions: [basicauth/server]\n"
                           "  telemetry: { metrics: { address: 127.0.0.1:" << kTelemetryPort
                        << " }, logs: { level: warn } }\n"
                           "  pipelines: { profiles: { receivers: [otlp/auth, otlp], exporters: [debug] } }\n";
  const pid_t child = fork();
  if (child == 0) {
    const std::string log = dir + "/proflow.log";
    freopen(log.c_str(), "w", stdout);
    freopen(log.c_str(), "a", stderr);
    execl(argv[1], argv[1], "--config", config.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  for (int i = 0; i < 200 && !healthy(); ++i) std::this_thread::sleep_for(milliseconds(100));
  if (!healthy()) {
    std::fprintf(stderr, "proflow did not become healthy; see %s/proflow.log\n", dir.c_str());
    kill(child, SIGKILL);
    return 1;
  }
  proflow::testing::ProfileSpec p;
  p.samples = {{{"leaf", "mid", "main"}, 10}, {{"other", "main"}, 3}};
  const std::string body = proflow::testing::makeRequest("bench", {p}).SerializeAsString();

  floodAndProbe(body, seconds, flood_connections);
  knownVersusUnknown(20);
  stalledUploads(body, seconds);

  kill(child, SIGTERM);
  int status = 0;
  waitpid(child, &status, 0);
  std::printf("config and daemon log in %s\n", dir.c_str());
  return 0;
}
