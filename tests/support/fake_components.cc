#include "tests/support/fake_components.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <map>

#include "core/flat/flat_merge.h"

namespace proflow::testing {
namespace {

std::mutex g_instances_mu;
std::map<std::string, FakeReceiver*> g_receivers;
std::map<std::string, FakeExporter*> g_exporters;
std::map<std::string, FakeConnector*> g_connectors;

template <class T>
T* lookup(std::map<std::string, T*>& m, const std::string& id) {
  std::lock_guard lock(g_instances_mu);
  auto it = m.find(id);
  return it == m.end() ? nullptr : it->second;
}

class FakeReceiverFactory final : public ReceiverFactoryFor<FakeConfig> {
 public:
  explicit FakeReceiverFactory(std::string type) : type_(std::move(type)) {}
  std::string_view type() const override { return type_; }
  std::string_view description() const override { return "test receiver"; }

 protected:
  std::unique_ptr<Receiver> createReceiver(const CreateSettings& s, const FakeConfig&, ConsumerPtr next) const override {
    auto r = std::make_unique<FakeReceiver>(s.id.str(), std::move(next));
    std::lock_guard lock(g_instances_mu);
    g_receivers[s.id.str()] = r.get();
    return r;
  }

 private:
  std::string type_;
};

class FakeProcessorFactory final : public ProcessorFactoryFor<FakeConfig> {
 public:
  explicit FakeProcessorFactory(std::string type) : type_(std::move(type)) {}
  std::string_view type() const override { return type_; }
  std::string_view description() const override { return "test processor"; }

 protected:
  std::unique_ptr<Processor> createProcessor(const CreateSettings& s, const FakeConfig& c,
                                             ConsumerPtr next) const override {
    return std::make_unique<FakeProcessor>(s.id.str() + "@" + s.telemetry->labels().back().second, c, std::move(next));
  }

 private:
  std::string type_;
};

class FakeExporterFactory final : public ExporterFactoryFor<FakeConfig> {
 public:
  explicit FakeExporterFactory(std::string type) : type_(std::move(type)) {}
  std::string_view type() const override { return type_; }
  std::string_view description() const override { return "test exporter"; }

 protected:
  std::unique_ptr<Exporter> createExporter(const CreateSettings& s, const FakeConfig& c) const override {
    auto e = std::make_unique<FakeExporter>(s.id.str(), c);
    std::lock_guard lock(g_instances_mu);
    g_exporters[s.id.str()] = e.get();
    return e;
  }

 private:
  std::string type_;
};

class FakeConnectorFactory final : public ConnectorFactoryFor<FakeConfig> {
 public:
  explicit FakeConnectorFactory(std::string type) : type_(std::move(type)) {}
  std::string_view type() const override { return type_; }
  std::string_view description() const override { return "test connector"; }

 protected:
  void checkConnectorRoutes(const FakeConfig& c, const std::set<std::string>& routes,
                            config::ValidationContext& ctx) const override {
    if (!c.label.empty() && !routes.count(c.label)) ctx.error("label", "pipeline '" + c.label + "' does not receive from this connector");
  }
  std::unique_ptr<Connector> createConnector(const CreateSettings& s, const FakeConfig& c,
                                             ConnectorRoutes routes) const override {
    auto e = std::make_unique<FakeConnector>(s.id.str(), c, std::move(routes));
    std::lock_guard lock(g_instances_mu);
    g_connectors[s.id.str()] = e.get();
    return e;
  }

 private:
  std::string type_;
};

}  // namespace

void Journal::add(std::string e) {
  std::lock_guard lock(mu_);
  entries_.push_back(std::move(e));
}
std::vector<std::string> Journal::entries() const {
  std::lock_guard lock(mu_);
  return entries_;
}
void Journal::clear() {
  std::lock_guard lock(mu_);
  entries_.clear();
}
Journal& Journal::global() {
  static Journal j;
  return j;
}

Status FakeReceiver::start(Host&) {
  Journal::global().add("start receiver/" + id_);
  return Status::ok();
}
void FakeReceiver::shutdown(Deadline) { Journal::global().add("shutdown receiver/" + id_); }
FakeReceiver* FakeReceiver::find(const std::string& id) { return lookup(g_receivers, id); }

void HoldGate::enter() {
  std::unique_lock lock(mu_);
  ++entered_;
  cv_.notify_all();
  cv_.wait(lock, [&] { return open_; });
}
void HoldGate::waitForCalls(int n) {
  std::unique_lock lock(mu_);
  cv_.wait(lock, [&] { return entered_ >= n; });
}
void HoldGate::release() {
  std::lock_guard lock(mu_);
  open_ = true;
  cv_.notify_all();
}
void HoldGate::reset() {
  std::lock_guard lock(mu_);
  entered_ = 0;
  open_ = false;
}
HoldGate& HoldGate::global() {
  static HoldGate g;
  return g;
}

FakeExporter::~FakeExporter() {
  if (lock_fd_ >= 0) ::close(lock_fd_);  // releases the flock
}

Status FakeExporter::start(Host&) {
  Journal::global().add("start exporter/" + id_);
  if (cfg_.lock.empty()) return Status::ok();
  lock_fd_ = ::open(cfg_.lock.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (lock_fd_ < 0 || ::flock(lock_fd_, LOCK_EX | LOCK_NB) != 0)
    return Status::unavailable("fake exporter: " + cfg_.lock + " is locked by another instance");
  return Status::ok();
}
void FakeExporter::shutdown(Deadline) {
  std::lock_guard lock(mu_);
  Journal::global().add("shutdown exporter/" + id_ + (in_flight_ > 0 ? " with calls inside" : ""));
}
Status FakeExporter::consume(Batch b) {
  if (cfg_.status == "unavailable") return Status::unavailable("fake exporter says unavailable");
  if (cfg_.status == "invalid") return Status::invalid("fake exporter says invalid");
  if (cfg_.status == "exhausted") return Status::exhausted("fake exporter says full");
  std::unique_lock lock(mu_);
  if (cfg_.hold) {
    ++in_flight_;
    lock.unlock();
    HoldGate::global().enter();
    lock.lock();
    --in_flight_;
  }
  received_.push_back(std::move(b));
  return Status::ok();
}
std::vector<Batch> FakeExporter::received() const {
  std::lock_guard lock(mu_);
  return received_;
}
FakeExporter* FakeExporter::find(const std::string& id) { return lookup(g_exporters, id); }

Status FakeConnector::start(Host&) {
  Journal::global().add("start connector/" + id_);
  return Status::ok();
}
void FakeConnector::shutdown(Deadline) { Journal::global().add("shutdown connector/" + id_); }
Status FakeConnector::consume(Batch b) {
  if (!cfg_.label.empty()) return routes_.at(cfg_.label)->consume(std::move(b));
  for (auto& [pipeline, route] : routes_)
    if (Status s = route->consume(b); !s.isOk()) return s;
  return Status::ok();
}
FakeConnector* FakeConnector::find(const std::string& id) { return lookup(g_connectors, id); }

Status FakeProcessor::start(Host&) {
  Journal::global().add("start processor/" + id_);
  return Status::ok();
}
void FakeProcessor::shutdown(Deadline) { Journal::global().add("shutdown processor/" + id_); }
Status FakeProcessor::consume(Batch b) {
  if (cfg_.mutates) {
    flat::Batch& data = b.mutableData();
    const int32_t attr = flat::DictionaryIndex(&data).stringAttribute("touched_by", id_);
    for (flat::Profile& p : data.profiles) {  // its list copied to the end, plus the new attribute
      const auto begin = static_cast<uint32_t>(data.indices.size());
      for (uint32_t i = p.attributes.begin; i < p.attributes.end(); ++i) data.indices.push_back(data.indices[i]);
      data.indices.push_back(attr);
      p.attributes = {begin, p.attributes.size + 1};
    }
  }
  return next_->consume(std::move(b));
}

void registerFakes(Registry& registry) {
  for (const char* t : {"fake", "fake2"}) {
    (void)registry.add(std::make_unique<FakeReceiverFactory>(t));
    (void)registry.add(std::make_unique<FakeProcessorFactory>(t));
    (void)registry.add(std::make_unique<FakeExporterFactory>(t));
    (void)registry.add(std::make_unique<FakeConnectorFactory>(t));
  }
}

}  // namespace proflow::testing
