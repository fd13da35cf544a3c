// What every receiver, processor, exporter and extension is: something the service starts and stops.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/util/status.h"

namespace proflow {

// A connector is an exporter of one pipeline and a receiver of others (the Collector's `connectors:`).
enum class ComponentKind { kReceiver, kProcessor, kExporter, kExtension, kConnector };

const char* componentKindName(ComponentKind kind);  // "receiver", ...

// `type[/name]` as written in YAML, e.g. "otlp" or "otlp/backend".
struct ComponentId {
  std::string type;
  std::string name;

  std::string str() const { return name.empty() ? type : type + "/" + name; }
  // Empty type, empty name after '/', or characters outside [A-Za-z0-9_.-] are invalid.
  static std::optional<ComponentId> parse(std::string_view text);
  auto operator<=>(const ComponentId&) const = default;
};

using Deadline = std::chrono::steady_clock::time_point;

class Component;

// What the daemon runs, for the pages that show it (the zpages extension).
struct HostDescription {
  struct Pipeline {
    std::string name;
    std::vector<std::string> receivers, processors, exporters;  // component ids as written
  };
  std::vector<Pipeline> pipelines;
  std::vector<std::string> extensions;
  std::chrono::system_clock::time_point started{};  // when the service last became healthy
};

// Services the running daemon offers to components after start.
class Host {
 public:
  virtual ~Host() = default;
  // A component that fails after start (a listener died, say) reports it here; the service logs it
  // and marks itself unhealthy.
  virtual void reportFatalError(const ComponentId& id, const Status& status) = 0;
  // The started extension with this id (listed in service.extensions), or nullptr. Extensions start
  // before every other component, so start() may look them up; the pointer lives until shutdown.
  virtual Component* extension(const ComponentId& id) {
    (void)id;
    return nullptr;
  }
  // True when every pipeline runs and no component reported a fatal error; false while starting,
  // after a failure and once shutdown began (what the health_check extension answers).
  virtual bool healthy() const { return false; }
  // Any thread, any time.
  virtual HostDescription describe() const { return {}; }
};

class Component {
 public:
  virtual ~Component() = default;
  // Opens sockets, starts threads. A non-OK status aborts start-up with the message.
  virtual Status start(Host& host) = 0;
  // Stops accepting work and drains what was accepted until `deadline`. Idempotent.
  virtual void shutdown(Deadline deadline) = 0;
};

using ComponentPtr = std::unique_ptr<Component>;

}  // namespace proflow
