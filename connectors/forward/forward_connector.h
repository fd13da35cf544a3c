// The `forward` connector: joins pipelines. What the pipelines exporting to it send goes to every
// pipeline receiving from it, as one fan-out, so a refusal of any of them reaches the sender.
#pragma once

#include "core/component/durable_acceptance.h"
#include "core/component/factory.h"

namespace proflow::connectors::forward {

// No options (the Collector's forward connector has none either).
struct ForwardConnectorConfig {
  template <class V>
  void visit(V&) {}
};

class ForwardConnector final : public Connector, public DurableAcceptance {
 public:
  explicit ForwardConnector(ConnectorRoutes routes);

  Status start(Host&) override { return Status::ok(); }
  void shutdown(Deadline) override {}
  bool acceptsDurably() const override { return proflow::acceptsDurably(*next_); }
  Status consume(Batch batch) override { return next_->consume(std::move(batch)); }

 private:
  ConsumerPtr next_;
};

}  // namespace proflow::connectors::forward
