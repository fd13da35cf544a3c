// Load driver for bench/core/ingest_rss.sh: N clients POST the same large valid profile at once
// (pprof to the pprof receiver, or its OTLP conversion to OTLP/HTTP), retrying 429s after
// Retry-After until accepted, while the daemon's resident memory is sampled. Prints one summary line.
//
//   ingest_rss_driver <pid> <port> <pprof|otlp> <clients> <body MiB>
#include <utility>  // before Asio: its awaitable.hpp uses std::exchange

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <array>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "core/formats/pprof/pprof_codec.h"
#include "tests/support/pprof_request.h"
#include "tests/support/large_pprof.h"

namespace {

namespace asio = boost::asio;
namespace http = boost::beast::http;

uint64_t statusKb(int pid, const char* field) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind(field, 0) == 0) return std::stoull(line.substr(std::string(field).size()));
  return 0;
}

struct Counts {
  std::atomic<int> accepted{0}, retried{0}, failed{0};
};

// POSTs until a final answer (not 429); returns the last HTTP status (0 = connection error).
int postUntilFinal(int port, const std::string& target, const std::string& content_type, const std::string& body,
                   Counts& counts) {
  for (int attempt = 0; attempt < 600; ++attempt) {
    asio::io_context io;
    asio::ip::tcp::socket sock(io);
    boost::system::error_code ec;
    sock.connect({asio::ip::address_v4::loopback(), static_cast<uint16_t>(port)}, ec);
    if (ec) return 0;
    // Header by hand and the shared body as is (120 copies of a 40 MiB body would swamp the
    // driver); Expect: 100-continue, as curl does for large bodies, so a refusal comes before the body.
    const std::string head = "POST " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: " + content_type +
                             "\r\nExpect: 100-continue\r\nContent-Length: " + std::to_string(body.size()) +
                             "\r\n\r\n";
    asio::write(sock, asio::buffer(head), ec);
    boost::beast::flat_buffer buf;
    http::response<http::string_body> res;
    http::read(sock, buf, res, ec);
    if (!ec && res.result() == http::status::continue_) {
      asio::write(sock, asio::buffer(body), ec);
      res = {};
      http::read(sock, buf, res, ec);
    }
    if (ec) return 0;
    if (res.result_int() != 429) return static_cast<int>(res.result_int());
    counts.retried++;
    std::this_thread::sleep_for(std::chrono::seconds(1));
  }
  return 429;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 6) {
    std::fprintf(stderr, "usage: %s <pid> <port> <pprof|otlp> <clients> <body MiB>\n", argv[0]);
    return 2;
  }
  const int pid = std::atoi(argv[1]), port = std::atoi(argv[2]), clients = std::atoi(argv[4]);
  const std::string mode = argv[3];
  const size_t mib = std::strtoull(argv[5], nullptr, 10);
  std::string body = ::proflow::testing::cpuShapedPprof(mib << 20);
  std::string target = "/v1/pprof", content_type = "application/octet-stream";
  if (mode == "otlp") {
    ::proflow::otlp::Request request;
    if (auto s = ::proflow::pprof::pprofBytesToOtlp(body, {}, &request); !s.isOk()) {
      std::fprintf(stderr, "conversion failed: %s\n", s.message().c_str());
      return 1;
    }
    body = request.SerializeAsString();
    target = "/v1development/profiles";
    content_type = "application/x-protobuf";
  }
  const uint64_t hwm_before = statusKb(pid, "VmHWM:");
  Counts counts;
  std::atomic<bool> done{false};
  uint64_t peak_sampled = 0;
  std::thread sampler([&] {
    while (!done) {
      peak_sampled = std::max(peak_sampled, statusKb(pid, "VmRSS:"));
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  });
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::thread> threads;
  for (int i = 0; i < clients; ++i)
    threads.emplace_back([&] {
      int status = postUntilFinal(port, target, content_type, body, counts);
      (status == 200 ? counts.accepted : counts.failed)++;
    });
  for (auto& t : threads) t.join();
  done = true;
  sampler.join();
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("%s: %d clients x %.1f MiB body: %d accepted, %d failed, %d answers 429 (retried), %.1f s; "
              "daemon peak RSS %.0f MiB (VmHWM %.0f MiB, %.0f MiB before)\n",
              mode.c_str(), clients, static_cast<double>(body.size()) / (1 << 20), counts.accepted.load(),
              counts.failed.load(), counts.retried.load(), secs, peak_sampled / 1024.0,
              statusKb(pid, "VmHWM:") / 1024.0, hwm_before / 1024.0);
  return counts.failed.load() == 0 ? 0 : 1;
}
