// Splits each batch by routing key (service.name, or all resource attributes) and hands every part
// to the OTLP exporter of the backend the hash ring picks for its key. Each backend is a full OTLP
// exporter on the exporter helper (own queue, retries, optional persistence). With a DNS resolver the
// backends are re-resolved every interval: new ones are started, gone ones drained and stopped, and
// only the keys of the changed backends move.
//
// A batch whose parts go to several backends is accepted only if every backend accepts its part;
// when one refuses (its queue is full), the others may already hold theirs, so a client retry can
// deliver those parts twice — the same trade-off as the Collector's load-balancing exporter.
#pragma once

#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

#include "core/component/durable_acceptance.h"
#include "core/component/factory.h"
#include "exporters/load_balancing/config.h"
#include "exporters/load_balancing/hash_ring.h"

namespace proflow::exporters::loadbalancing {

class LoadBalancingExporter final : public Exporter, public DurableAcceptance {
 public:
  LoadBalancingExporter(const CreateSettings& settings, LoadBalancingExporterConfig config);
  ~LoadBalancingExporter() override;

  Status start(Host& host) override;
  void shutdown(Deadline deadline) override;
  Status consume(Batch batch) override;
  // Durable when the backends' queues are persistent: an accepted part is on the disk of its backend.
  bool acceptsDurably() const override {
    const auto& queue = config_.protocol.otlp.helper.sending_queue;
    return queue.enabled && !queue.directory.empty();
  }

  // The backend a routing key goes to now ("" before start).
  std::string backendFor(const std::string& key) const;
  // Routes over `endpoints` from now on: starts new backends, drains and stops those that left (the
  // DNS resolver calls this each interval; after start() only).
  Status setBackends(const std::vector<std::string>& endpoints);

 private:
  // One immutable view of the backends; consume() takes a copy of the pointer and never blocks the
  // resolver (or vice versa).
  struct Routing {
    HashRing ring;
    std::map<std::string, std::shared_ptr<Exporter>> exporters;  // by endpoint
  };

  std::shared_ptr<Exporter> makeBackend(const std::string& endpoint, Status* status);
  std::string routingKey(const flat::Batch& batch, size_t resource_index) const;
  void resolveLoop();

  CreateSettings settings_;
  LoadBalancingExporterConfig config_;
  Host* host_ = nullptr;

  mutable std::mutex mu_;
  std::shared_ptr<const Routing> routing_;
  std::condition_variable cv_;
  bool stopping_ = false;
  std::thread resolver_;
};

}  // namespace proflow::exporters::loadbalancing
