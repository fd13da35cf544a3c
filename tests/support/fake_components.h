// Test components with their factories: they record lifecycle calls into a shared journal and let
// tests push batches in (FakeReceiver) and see what came out (FakeExporter). An exporter shut down
// while a call is inside it journals "shutdown exporter/<id> with calls inside".
#pragma once

#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/component/factory_helpers.h"
#include "core/component/registry.h"

namespace proflow::testing {

// Ordered log of "start exporter/x", "shutdown receiver/y", ... shared by all fakes.
class Journal {
 public:
  void add(std::string e);
  std::vector<std::string> entries() const;
  static Journal& global();
  void clear();

 private:
  mutable std::mutex mu_;
  std::vector<std::string> entries_;
};

struct FakeConfig {
  std::string label;   // free text
  int value = 0;       // must be >= 0
  bool mutates = false;
  std::string status;  // exporter: "" OK, "unavailable", "invalid", "exhausted"
  bool hold = false;   // exporter: consume() waits inside until HoldGate::release()
  std::string lock;    // exporter: a file flock()ed from start() until destruction, as a persistent queue's
  template <class V>
  void visit(V& v) {
    v.field("label", label);
    v.field("value", value);
    v.field("mutates", mutates);
    v.field("status", status);
    v.field("hold", hold);
    v.field("lock", lock);
  }
  void validate(config::ValidationContext& ctx) const {
    if (value < 0) ctx.error("value", "must be >= 0");
  }
};

class FakeReceiver final : public Receiver {
 public:
  FakeReceiver(std::string id, ConsumerPtr next) : id_(std::move(id)), next_(std::move(next)) {}
  Status start(Host&) override;
  void shutdown(Deadline) override;
  Status push(Batch b) { return next_->consume(std::move(b)); }
  // The most recently created instance per id (tests reach receivers through this).
  static FakeReceiver* find(const std::string& id);

 private:
  std::string id_;
  ConsumerPtr next_;
};

// Where the calls into `hold: true` exporters wait: tests see them arrive and let them go.
class HoldGate {
 public:
  void enter();  // counts the call, waits until release()
  void waitForCalls(int n);
  void release();
  void reset();
  static HoldGate& global();

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  int entered_ = 0;
  bool open_ = false;
};

class FakeExporter final : public Exporter {
 public:
  FakeExporter(std::string id, FakeConfig cfg) : id_(std::move(id)), cfg_(std::move(cfg)) {}
  ~FakeExporter() override;
  Capabilities capabilities() const override { return {cfg_.mutates}; }
  Status start(Host&) override;
  void shutdown(Deadline) override;
  Status consume(Batch b) override;
  std::vector<Batch> received() const;
  static FakeExporter* find(const std::string& id);

 private:
  std::string id_;
  FakeConfig cfg_;
  mutable std::mutex mu_;
  std::vector<Batch> received_;
  int in_flight_ = 0;
  int lock_fd_ = -1;
};

// Tags every profile with an attribute and passes it on; declares mutates_data.
class FakeProcessor final : public Processor {
 public:
  FakeProcessor(std::string id, FakeConfig cfg, ConsumerPtr next)
      : id_(std::move(id)), cfg_(std::move(cfg)), next_(std::move(next)) {}
  Capabilities capabilities() const override { return {cfg_.mutates}; }
  Status start(Host&) override;
  void shutdown(Deadline) override;
  Status consume(Batch b) override;

 private:
  std::string id_;
  FakeConfig cfg_;
  ConsumerPtr next_;
};

// Passes each batch to the pipeline its `label` names, or to every pipeline it feeds when `label` is
// empty; a `label` naming no pipeline it feeds is refused at load.
class FakeConnector final : public Connector {
 public:
  FakeConnector(std::string id, FakeConfig cfg, ConnectorRoutes routes)
      : id_(std::move(id)), cfg_(std::move(cfg)), routes_(std::move(routes)) {}
  Status start(Host&) override;
  void shutdown(Deadline) override;
  Status consume(Batch b) override;
  static FakeConnector* find(const std::string& id);

 private:
  std::string id_;
  FakeConfig cfg_;
  ConnectorRoutes routes_;
};

// Registers receiver/processor/exporter/connector type "fake" (and "fake2" for each kind).
void registerFakes(Registry& registry);

}  // namespace proflow::testing
