// Factories: one per component type. The type name is the YAML key; the default config is the
// starting point YAML overrides; create() builds an instance once the config validated.
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>

#include <spdlog/logger.h>

#include "core/component/component.h"
#include "core/config/component_config.h"
#include "core/component/consumer.h"
#include "core/runtime/runtime.h"
#include "core/telemetry/component_telemetry.h"

namespace proflow {

struct CreateSettings {
  ComponentId id;
  ComponentKind kind;
  std::shared_ptr<spdlog::logger> logger;
  telemetry::ComponentTelemetry* telemetry;  // standard counters of this instance, owned by the service
  Runtime* runtime;                          // shared I/O and worker threads
};

class Receiver : public Component {};

class Processor : public Component, public ProfilesConsumer {};

class Exporter : public Component, public ProfilesConsumer {};

class Extension : public Component {};

// Consumes what the pipelines that export to it produce and hands it to the pipelines that receive
// from it.
class Connector : public Component, public ProfilesConsumer {};

// The pipelines a connector feeds: the entry of each pipeline that lists the connector as a
// receiver, keyed by pipeline name ("profiles/a").
using ConnectorRoutes = std::map<std::string, ConsumerPtr, std::less<>>;

class Factory {
 public:
  virtual ~Factory() = default;
  virtual ComponentKind kind() const = 0;
  virtual std::string_view type() const = 0;
  // One line for `proflow components`: built-in components give it in their metadata.yaml (the
  // registry's copy is what is shown); factories made for tests may give it here.
  virtual std::string_view description() const { return {}; }
  virtual std::unique_ptr<config::ComponentConfig> createDefaultConfig() const = 0;
};

class ReceiverFactory : public Factory {
 public:
  ComponentKind kind() const final { return ComponentKind::kReceiver; }
  // `next` fans out to every pipeline the receiver is part of.
  virtual std::unique_ptr<Receiver> create(const CreateSettings& settings, const config::ComponentConfig& config,
                                           ConsumerPtr next) const = 0;
};

class ProcessorFactory : public Factory {
 public:
  ComponentKind kind() const final { return ComponentKind::kProcessor; }
  virtual std::unique_ptr<Processor> create(const CreateSettings& settings, const config::ComponentConfig& config,
                                            ConsumerPtr next) const = 0;
};

class ExporterFactory : public Factory {
 public:
  ComponentKind kind() const final { return ComponentKind::kExporter; }
  virtual std::unique_ptr<Exporter> create(const CreateSettings& settings,
                                           const config::ComponentConfig& config) const = 0;
};

class ConnectorFactory : public Factory {
 public:
  ComponentKind kind() const final { return ComponentKind::kConnector; }
  // Checks at load that the config names only pipelines in `routes` (those receiving from the
  // connector). Called after validate().
  virtual void checkRoutes(const config::ComponentConfig& config, const std::set<std::string>& routes,
                           config::ConfigErrors& errors) const {
    (void)config, (void)routes, (void)errors;
  }
  virtual std::unique_ptr<Connector> create(const CreateSettings& settings, const config::ComponentConfig& config,
                                            ConnectorRoutes routes) const = 0;
};

class ExtensionFactory : public Factory {
 public:
  ComponentKind kind() const final { return ComponentKind::kExtension; }
  // True for extensions that authenticate requests (may be named by a receiver's `auth: { authenticator: }`).
  virtual bool isAuthenticator() const { return false; }
  // True for extensions that add headers to requests (may be named by an exporter's `auth`).
  virtual bool isClientAuthenticator() const { return isAuthenticator(); }
  virtual std::unique_ptr<Extension> create(const CreateSettings& settings,
                                            const config::ComponentConfig& config) const = 0;
};

}  // namespace proflow
