#include "exporters/load_balancing/loadbalancing_exporter.h"

#include <spdlog/spdlog.h>

#include "core/exporterhelper/exporter_helper.h"
#include "core/exporterhelper/otlp_grpc_sender.h"
#include "core/flat/flat_attributes.h"
#include "core/flat/flat_merge.h"
#include "core/flat/flat_split.h"
#include "core/runtime/thread_name.h"
#include "exporters/load_balancing/resolver.h"

namespace proflow::exporters::loadbalancing {
namespace {

using Clock = std::chrono::steady_clock;
constexpr auto kDrainTimeout = std::chrono::seconds(10);  // for backends the resolver no longer lists

}  // namespace

LoadBalancingExporter::LoadBalancingExporter(const CreateSettings& settings, LoadBalancingExporterConfig config)
    : settings_(settings), config_(std::move(config)) {}

LoadBalancingExporter::~LoadBalancingExporter() { shutdown(Clock::now()); }

std::shared_ptr<Exporter> LoadBalancingExporter::makeBackend(const std::string& endpoint, Status* status) {
  exporterhelper::OtlpGrpcConfig cfg = config_.protocol.otlp;
  cfg.endpoint = endpoint;
  CreateSettings s = settings_;
  // Its own id, so a persistent queue gets one directory per backend.
  s.id.name = (settings_.id.name.empty() ? "" : settings_.id.name + "-") + endpoint;
  auto exporter = std::make_shared<exporterhelper::ExporterHelper>(s, cfg.helper,
                                                                   std::make_unique<exporterhelper::OtlpGrpcSender>(s, cfg));
  *status = exporter->start(*host_);
  return exporter;
}

Status LoadBalancingExporter::setBackends(const std::vector<std::string>& endpoints) {
  std::shared_ptr<const Routing> old;
  {
    std::lock_guard lock(mu_);
    old = routing_;
  }
  auto next = std::make_shared<Routing>(Routing{HashRing(endpoints), {}});
  if (old && old->ring.backends() == next->ring.backends()) return Status::ok();
  for (const auto& endpoint : next->ring.backends()) {
    if (old && old->exporters.count(endpoint)) {
      next->exporters[endpoint] = old->exporters.at(endpoint);
      continue;
    }
    Status s;
    next->exporters[endpoint] = makeBackend(endpoint, &s);
    if (!s.isOk()) {
      // Stop what this attempt started; routing stays as it was.
      for (const auto& [e, exporter] : next->exporters)
        if (!old || !old->exporters.count(e)) exporter->shutdown(Clock::now());
      return Status(s.code(), "backend " + endpoint + ": " + s.message());
    }
  }
  {
    std::lock_guard lock(mu_);
    routing_ = next;
  }
  settings_.logger->info("routing over {} backends", next->ring.backends().size());
  if (old) {
    // Gone backends: drain what they queued, then stop (new data already goes elsewhere).
    for (const auto& [endpoint, exporter] : old->exporters)
      if (!next->exporters.count(endpoint)) {
        settings_.logger->info("backend {} left; draining it", endpoint);
        exporter->shutdown(Clock::now() + kDrainTimeout);
      }
  }
  return Status::ok();
}

Status LoadBalancingExporter::start(Host& host) {
  host_ = &host;
  std::vector<std::string> endpoints;
  if (config_.resolver.static_list) {
    endpoints = config_.resolver.static_list->hostnames;
  } else {
    const auto& dns = *config_.resolver.dns;
    // A name that does not resolve yet (gateways still starting) is not fatal: keep trying.
    if (Status s = resolveBackends(dns.hostname, dns.port, &endpoints); !s.isOk())
      settings_.logger->warn("{}; retrying every {} ms", s.message(),
                             std::chrono::duration_cast<std::chrono::milliseconds>(dns.interval.value).count());
  }
  if (!endpoints.empty()) {
    if (Status s = setBackends(endpoints); !s.isOk()) return s;
  }
  if (config_.resolver.dns) resolver_ = std::thread([this] { setThreadName("lb-resolver"); resolveLoop(); });
  return Status::ok();
}

void LoadBalancingExporter::resolveLoop() {
  const auto& dns = *config_.resolver.dns;
  std::unique_lock lock(mu_);
  while (!cv_.wait_for(lock, dns.interval.value, [&] { return stopping_; })) {
    lock.unlock();
    std::vector<std::string> endpoints;
    Status s = resolveBackends(dns.hostname, dns.port, &endpoints);
    if (s.isOk()) s = setBackends(endpoints);
    // Keep routing over the last known backends rather than over none.
    if (!s.isOk()) settings_.logger->warn("keeping the previous backends: {}", s.toString());
    lock.lock();
  }
}

std::string LoadBalancingExporter::routingKey(const flat::Batch& batch, size_t resource_index) const {
  const flat::Resource& r = batch.resources[resource_index];
  if (config_.routing_key == "service")
    return flat::resourceAttribute(batch, r, "service.name").value_or("");  // unnamed ones go together
  return flat::keyValuesIdentity(batch, r.attributes);
}

Status LoadBalancingExporter::consume(Batch batch) {
  std::shared_ptr<const Routing> routing;
  {
    std::lock_guard lock(mu_);
    if (stopping_) return Status::unavailable("exporter is not running");
    routing = routing_;
  }
  if (!routing) return Status::unavailable("no backend resolved yet").withRetryAfter(std::chrono::seconds(1));
  const flat::Batch& data = batch.data();
  std::map<std::string, uint32_t> backends;  // endpoint -> part
  std::vector<uint32_t> part_of(data.resources.size());
  for (size_t r = 0; r < data.resources.size(); ++r) {
    auto [it, added] =
        backends.emplace(routing->ring.backendFor(routingKey(data, r)), static_cast<uint32_t>(backends.size()));
    part_of[r] = it->second;
  }
  if (backends.empty()) return Status::ok();
  if (backends.size() == 1) return routing->exporters.at(backends.begin()->first)->consume(std::move(batch));
  std::vector<flat::Batch> parts = flat::splitByResource(data, part_of, static_cast<uint32_t>(backends.size()));
  Status first_error;
  for (const auto& [endpoint, part] : backends) {
    Status s = routing->exporters.at(endpoint)->consume(Batch(std::move(parts[part])).withMetadataOf(batch));
    if (!s.isOk() && first_error.isOk()) first_error = Status(s.code(), endpoint + ": " + s.message()).withRetryAfter(s.retryAfter());
  }
  return first_error;
}

std::string LoadBalancingExporter::backendFor(const std::string& key) const {
  std::lock_guard lock(mu_);
  return routing_ ? routing_->ring.backendFor(key) : std::string();
}

void LoadBalancingExporter::shutdown(Deadline deadline) {
  std::shared_ptr<const Routing> routing;
  {
    std::lock_guard lock(mu_);
    if (stopping_) return;
    stopping_ = true;
    routing = routing_;
    cv_.notify_all();
  }
  if (resolver_.joinable()) resolver_.join();
  if (routing)
    for (const auto& [endpoint, exporter] : routing->exporters) exporter->shutdown(deadline);
}

}  // namespace proflow::exporters::loadbalancing
