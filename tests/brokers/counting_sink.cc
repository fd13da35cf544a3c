#include "tests/brokers/counting_sink.h"

#include "tests/support/profile_builder.h"

namespace proflow::testing {

CountingSink::CountingSink(int port) : port_(port) {}

CountingSink::~CountingSink() {
  hold("");
  stop();
}

bool CountingSink::start() {
  grpc::ServerBuilder b;
  int bound = 0;
  b.AddListeningPort("127.0.0.1:" + std::to_string(port_), grpc::InsecureServerCredentials(), &bound);
  b.RegisterService(this);
  server_ = b.BuildAndStart();
  if (server_ && port_ == 0) port_ = bound;  // port 0: the one the system chose, kept for restarts
  return server_ != nullptr;
}

void CountingSink::stop() {
  if (!server_) return;
  hold("");
  server_->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(2));
  server_->Wait();
  server_.reset();
}

grpc::Status CountingSink::Export(grpc::ServerContext* ctx, const otlp::Request* req, otlp::Response* resp) {
  (void)resp;
  std::unique_lock lock(mu_);
  if (!holding_.empty() && req->resource_profiles_size() > 0 && serviceName(*req, 0) == holding_) {
    ++held_;
    while (!holding_.empty() && !ctx->IsCancelled()) released_.wait_for(lock, std::chrono::milliseconds(50));
    return grpc::Status(grpc::StatusCode::UNAVAILABLE, "held");
  }
  for (int i = 0; i < req->resource_profiles_size(); ++i) ++arrivals_[serviceName(*req, i)];
  return grpc::Status::OK;
}

void CountingSink::hold(const std::string& service) {
  {
    std::lock_guard lock(mu_);
    holding_ = service;
  }
  released_.notify_all();
}

int CountingSink::held() const {
  std::lock_guard lock(mu_);
  return held_;
}

std::map<std::string, int> CountingSink::arrivals() const {
  std::lock_guard lock(mu_);
  return arrivals_;
}

std::set<std::string> CountingSink::missing(const std::set<std::string>& wanted) const {
  std::lock_guard lock(mu_);
  std::set<std::string> out;
  for (const auto& w : wanted)
    if (!arrivals_.count(w)) out.insert(w);
  return out;
}

}  // namespace proflow::testing
