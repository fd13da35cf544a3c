// An OTLP/gRPC sink for scenario tests: counts every arrival of every service.name (so duplicates
// show), and can be stopped and started again on the same port.
#pragma once

#include <grpcpp/grpcpp.h>

#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>

#include "core/model/otlp_types.h"
#include "opentelemetry/proto/collector/profiles/v1development/profiles_service.grpc.pb.h"

namespace proflow::testing {

class CountingSink final : public ::opentelemetry::proto::collector::profiles::v1development::ProfilesService::Service {
 public:
  // Port 0: the system picks one at the first start() (port() then tells it).
  explicit CountingSink(int port);
  ~CountingSink() override;

  bool start();
  void stop();
  int port() const { return port_; }

  grpc::Status Export(grpc::ServerContext* ctx, const otlp::Request* req, otlp::Response* resp) override;

  // Each Export of `service` (its first resource's service.name) waits, until released with ""
  // or until its caller gives up, and counts nothing but itself in held(): a backend that stalls
  // whoever sends it that service's data.
  void hold(const std::string& service);
  int held() const;

  std::map<std::string, int> arrivals() const;  // service.name -> times it arrived
  // Services of `wanted` that have not arrived yet.
  std::set<std::string> missing(const std::set<std::string>& wanted) const;

 private:
  int port_;
  std::unique_ptr<grpc::Server> server_;
  mutable std::mutex mu_;
  std::condition_variable released_;
  std::string holding_;  // "": none
  int held_ = 0;
  std::map<std::string, int> arrivals_;
};

}  // namespace proflow::testing
