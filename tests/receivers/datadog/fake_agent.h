// A stand-in for the Datadog Agent behind `forward_to`: a local HTTP server that records every request
// and answers 202 with its own header and body (after an optional delay).
#pragma once

#include <gtest/gtest.h>
#include <spdlog/spdlog.h>

#include <boost/asio/io_context.hpp>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/net/http_server.h"

namespace proflow::receivers::datadog::testing {

struct FakeAgent {
  struct Got {
    std::string method, target, body;
    net::HttpHeaders headers;
  };
  explicit FakeAgent(boost::asio::io_context& io, std::chrono::milliseconds delay = {}) {
    net::HttpServerOptions o;
    server = std::make_unique<net::HttpServer>(io, o, spdlog::default_logger());
    for (const char* m : {"GET", "POST", "PUT"})
      server->route(m, "/*", [this, delay](net::HttpRequest&& req, net::Responder respond) {
        std::lock_guard<std::mutex> lock(mu);
        got.push_back({req.method, req.target, req.body, req.headers});
        answering.emplace_back([respond, delay, path = req.path] {
          std::this_thread::sleep_for(delay);
          net::HttpResponse r{202, "application/json", "{\"agent\":\"" + path + "\"}", {{"X-Agent", "yes"}}};
          respond(std::move(r));
        });
      });
    EXPECT_TRUE(server->start().isOk());
  }
  ~FakeAgent() {
    std::vector<std::thread> threads;
    {
      std::lock_guard<std::mutex> lock(mu);
      threads.swap(answering);
    }
    for (auto& t : threads) t.join();
    server->stop();
  }
  std::vector<Got> received() {
    std::lock_guard<std::mutex> lock(mu);
    return got;
  }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(server->port()); }
  std::unique_ptr<net::HttpServer> server;
  std::mutex mu;
  std::vector<Got> got;
  std::vector<std::thread> answering;
};

}  // namespace proflow::receivers::datadog::testing
