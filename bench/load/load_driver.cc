// Load driver for the gateway path: POSTs one OTLP/HTTP protobuf body from many keep-alive
// connections to a running proflow and reports, against that daemon's own CPU time
// (/proc/<pid>/stat utime + stime):
//   - saturation: requests per daemon CPU-second, requests/s and daemon cores used;
//   - the floor: protobuf parse + serialize of the same body per CPU-second in this process, and the
//     ratio of the two (how close the daemon's whole path is to the cheapest possible work);
//   - latency p50 / p99 at half of the saturation rate (paced, open loop);
//   - the daemon's resident memory (VmRSS sampled every 100 ms, and VmHWM) before, during and after.
//
//   proflow_load --port 4318 --pid 1234 --body go_cpu.otlp.pb [--connections 16] [--seconds 10]
// run.sh starts the daemons and runs it with the default and with one worker.
#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <iostream>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "core/model/otlp_types.h"

namespace {

namespace beast = boost::beast;
namespace http = beast::http;
using tcp = boost::asio::ip::tcp;
using Clock = std::chrono::steady_clock;

struct Options {
  int port = 4318;
  int pid = 0;
  std::string body_path;
  int connections = 16;
  double seconds = 10;
};

// utime + stime of `pid`, in seconds.
double processCpuSeconds(int pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // Fields after the command name (which may hold spaces) start after the last ')'.
  std::istringstream rest(stat.substr(stat.rfind(')') + 2));
  std::string field;
  unsigned long long utime = 0, stime = 0;
  for (int i = 3; i <= 15 && rest >> field; ++i) {
    if (i == 14) utime = std::stoull(field);
    if (i == 15) stime = std::stoull(field);
  }
  return static_cast<double>(utime + stime) / static_cast<double>(sysconf(_SC_CLK_TCK));
}

// A `Vm...:` line of /proc/<pid>/status, in KiB (0 when the process is gone).
long statusKiB(int pid, const std::string& field) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line))
    if (line.compare(0, field.size() + 1, field + ":") == 0) return std::stol(line.substr(field.size() + 1));
  return 0;
}

double mib(double kib) { return kib / 1024; }

double threadCpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// Parse + serialize of the body, per CPU-second of one thread.
double floorPerCpuSecond(const std::string& body) {
  const double start = threadCpuSeconds();
  long n = 0;
  std::string out;
  while (threadCpuSeconds() - start < 2.0) {
    proflow::otlp::Request r;
    if (!r.ParseFromString(body)) return 0;
    out.clear();
    r.SerializeToString(&out);
    ++n;
  }
  return static_cast<double>(n) / (threadCpuSeconds() - start);
}

// The body with its resources' service.name set to `service`: each connection plays one agent's
// service, as a gateway sees them (the batch processor shards by resource).
std::string asService(const std::string& body, const std::string& service) {
  proflow::otlp::Request r;
  r.ParseFromString(body);
  for (auto& rp : *r.mutable_resource_profiles()) {
    auto* attrs = rp.mutable_resource()->mutable_attributes();
    auto it = std::find_if(attrs->begin(), attrs->end(), [](const auto& kv) { return kv.key() == "service.name"; });
    auto* kv = it != attrs->end() ? &*it : attrs->Add();
    kv->set_key("service.name");
    kv->mutable_value()->set_string_value(service);
  }
  return r.SerializeAsString();
}

struct RunResult {
  long ok = 0;
  long failed = 0;
  double wall = 0;
  double daemon_cpu = 0;
  std::vector<double> latencies_ms;
  long rss_peak_kib = 0;  // highest VmRSS sample during the run
  double rss_mean_kib = 0;
};

// `connections` keep-alive connections for `seconds`; `rate` > 0 paces the whole run to that many
// requests per second (open loop), 0 sends as fast as answers come back.
RunResult run(const Options& o, const std::string& body, double rate) {
  RunResult result;
  std::mutex mu;
  std::atomic<bool> stop{false};
  const double cpu0 = processCpuSeconds(o.pid);
  const auto t0 = Clock::now();
  std::vector<std::thread> threads;
  for (int c = 0; c < o.connections; ++c)
    threads.emplace_back([&, c] {
      boost::asio::io_context io;
      tcp::resolver resolver(io);
      beast::tcp_stream stream(io);
      stream.connect(resolver.resolve("127.0.0.1", std::to_string(o.port)));
      http::request<http::string_body> req{http::verb::post, "/v1development/profiles", 11};
      req.set(http::field::host, "127.0.0.1");
      req.set(http::field::content_type, "application/x-protobuf");
      req.keep_alive(true);
      req.body() = asService(body, "load-" + std::to_string(c));
      req.prepare_payload();
      beast::flat_buffer buffer;
      std::vector<double> lat;
      long ok = 0, failed = 0;
      const auto interval = rate > 0 ? std::chrono::duration<double>(o.connections / rate) : std::chrono::duration<double>(0);
      auto next = t0 + std::chrono::duration_cast<Clock::duration>(interval * (static_cast<double>(c) / o.connections));
      while (!stop) {
        if (rate > 0) {
          std::this_thread::sleep_until(next);
          next += std::chrono::duration_cast<Clock::duration>(interval);
        }
        const auto sent = Clock::now();
        http::write(stream, req);
        http::response<http::string_body> res;
        http::read(stream, buffer, res);
        lat.push_back(std::chrono::duration<double, std::milli>(Clock::now() - sent).count());
        (res.result() == http::status::ok ? ok : failed)++;
      }
      std::lock_guard lock(mu);
      result.ok += ok;
      result.failed += failed;
      result.latencies_ms.insert(result.latencies_ms.end(), lat.begin(), lat.end());
    });
  long rss_samples = 0;
  double rss_sum = 0;
  for (auto end = t0 + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(o.seconds));
       Clock::now() < end;) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    const long rss = statusKiB(o.pid, "VmRSS");
    result.rss_peak_kib = std::max(result.rss_peak_kib, rss);
    rss_sum += static_cast<double>(rss);
    ++rss_samples;
  }
  result.rss_mean_kib = rss_sum / static_cast<double>(std::max(rss_samples, 1L));
  stop = true;
  for (auto& t : threads) t.join();
  result.wall = std::chrono::duration<double>(Clock::now() - t0).count();
  result.daemon_cpu = processCpuSeconds(o.pid) - cpu0;
  std::sort(result.latencies_ms.begin(), result.latencies_ms.end());
  return result;
}

double percentile(const std::vector<double>& sorted, double p) {
  if (sorted.empty()) return 0;
  return sorted[std::min(sorted.size() - 1, static_cast<size_t>(p * static_cast<double>(sorted.size())))];
}

bool parseArgs(int argc, char** argv, Options* o) {
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string k = argv[i], v = argv[i + 1];
    if (k == "--port") o->port = std::stoi(v);
    else if (k == "--pid") o->pid = std::stoi(v);
    else if (k == "--body") o->body_path = v;
    else if (k == "--connections") o->connections = std::stoi(v);
    else if (k == "--seconds") o->seconds = std::stod(v);
    else return false;
  }
  return o->pid > 0 && !o->body_path.empty() && o->connections > 0 && o->seconds > 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  if (!parseArgs(argc, argv, &o)) {
    std::cerr << "usage: proflow_load --port PORT --pid DAEMON_PID --body OTLP_PROTOBUF_FILE "
                 "[--connections N] [--seconds S]\n";
    return 2;
  }
  std::ifstream in(o.body_path, std::ios::binary);
  const std::string body((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const double floor = floorPerCpuSecond(body);
  if (floor == 0) {
    std::cerr << o.body_path << " is not an OTLP profiles request\n";
    return 2;
  }
  const long rss_before = statusKiB(o.pid, "VmRSS");
  const RunResult sat = run(o, body, 0);
  const double per_cpu = static_cast<double>(sat.ok) / std::max(sat.daemon_cpu, 1e-9);
  const double rps = static_cast<double>(sat.ok) / sat.wall;
  const RunResult half = run(o, body, rps / 2);
  std::printf("body_bytes %zu\n", body.size());
  std::printf("saturation: %.0f req/s, %ld ok, %ld failed, daemon cores used %.2f\n", rps, sat.ok, sat.failed,
              sat.daemon_cpu / sat.wall);
  std::printf("requests per daemon CPU-second: %.0f (%.0f us of daemon CPU per request)\n", per_cpu, 1e6 / per_cpu);
  std::printf("parse+serialize floor per CPU-second: %.0f (daemon / floor = %.3f)\n", floor, per_cpu / floor);
  std::printf("at half saturation (%.0f req/s): p50 %.2f ms, p99 %.2f ms, %ld failed, daemon cores %.2f\n",
              static_cast<double>(half.ok) / half.wall, percentile(half.latencies_ms, 0.5),
              percentile(half.latencies_ms, 0.99), half.failed, half.daemon_cpu / half.wall);
  std::printf("daemon RSS (VmRSS every 100 ms): before load %.1f MiB, saturation mean %.1f / peak %.1f MiB, "
              "at half saturation peak %.1f MiB, VmHWM %.1f MiB\n",
              mib(static_cast<double>(rss_before)), mib(sat.rss_mean_kib), mib(static_cast<double>(sat.rss_peak_kib)),
              mib(static_cast<double>(half.rss_peak_kib)), mib(static_cast<double>(statusKiB(o.pid, "VmHWM"))));
  std::printf("saturation peak RSS above the unloaded daemon, per 1,000 req/s: %.1f MiB\n",
              mib(static_cast<double>(sat.rss_peak_kib - rss_before)) / std::max(rps / 1000, 1e-9));
  return 0;
}
