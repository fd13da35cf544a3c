// Base classes that turn "a config struct + a create function" into a factory, so a component's
// factory file is a dozen lines.
#pragma once

#include <string>
#include <type_traits>

#include "core/auth/authenticator.h"
#include "core/component/factory.h"

namespace proflow {

template <class ConfigT>
class ReceiverFactoryFor : public ReceiverFactory {
 public:
  std::unique_ptr<config::ComponentConfig> createDefaultConfig() const override {
    return std::make_unique<config::TypedConfig<ConfigT>>();
  }
  std::unique_ptr<Receiver> create(const CreateSettings& s, const config::ComponentConfig& c,
                                   ConsumerPtr next) const final {
    return createReceiver(s, c.as<ConfigT>(), std::move(next));
  }

 protected:
  virtual std::unique_ptr<Receiver> createReceiver(const CreateSettings& s, const ConfigT& c,
                                                   ConsumerPtr next) const = 0;
};

template <class ConfigT>
class ProcessorFactoryFor : public ProcessorFactory {
 public:
  std::unique_ptr<config::ComponentConfig> createDefaultConfig() const override {
    return std::make_unique<config::TypedConfig<ConfigT>>();
  }
  std::unique_ptr<Processor> create(const CreateSettings& s, const config::ComponentConfig& c,
                                    ConsumerPtr next) const final {
    return createProcessor(s, c.as<ConfigT>(), std::move(next));
  }

 protected:
  virtual std::unique_ptr<Processor> createProcessor(const CreateSettings& s, const ConfigT& c,
                                                     ConsumerPtr next) const = 0;
};

template <class ConfigT>
class ExporterFactoryFor : public ExporterFactory {
 public:
  std::unique_ptr<config::ComponentConfig> createDefaultConfig() const override {
    return std::make_unique<config::TypedConfig<ConfigT>>();
  }
  std::unique_ptr<Exporter> create(const CreateSettings& s, const config::ComponentConfig& c) const final {
    return createExporter(s, c.as<ConfigT>());
  }

 protected:
  virtual std::unique_ptr<Exporter> createExporter(const CreateSettings& s, const ConfigT& c) const = 0;
};

template <class ConfigT>
class ExtensionFactoryFor : public ExtensionFactory {
 public:
  std::unique_ptr<config::ComponentConfig> createDefaultConfig() const override {
    return std::make_unique<config::TypedConfig<ConfigT>>();
  }
  std::unique_ptr<Extension> create(const CreateSettings& s, const config::ComponentConfig& c) const final {
    return createExtension(s, c.as<ConfigT>());
  }

 protected:
  virtual std::unique_ptr<Extension> createExtension(const CreateSettings& s, const ConfigT& c) const = 0;
};

template <class ConfigT>
class ConnectorFactoryFor : public ConnectorFactory {
 public:
  std::unique_ptr<config::ComponentConfig> createDefaultConfig() const override {
    return std::make_unique<config::TypedConfig<ConfigT>>();
  }
  void checkRoutes(const config::ComponentConfig& c, const std::set<std::string>& routes,
                   config::ConfigErrors& errors) const final {
    c.validateWith(errors, [&](config::ValidationContext& ctx) { checkConnectorRoutes(c.as<ConfigT>(), routes, ctx); });
  }
  std::unique_ptr<Connector> create(const CreateSettings& s, const config::ComponentConfig& c,
                                    ConnectorRoutes routes) const final {
    return createConnector(s, c.as<ConfigT>(), std::move(routes));
  }

 protected:
  // Reports (through `ctx`, at the config's field locations) pipelines the config names that do not
  // receive from the connector.
  virtual void checkConnectorRoutes(const ConfigT& c, const std::set<std::string>& routes,
                                    config::ValidationContext& ctx) const {
    (void)c, (void)routes, (void)ctx;
  }
  virtual std::unique_ptr<Connector> createConnector(const CreateSettings& s, const ConfigT& c,
                                                     ConnectorRoutes routes) const = 0;
};

// The whole factory of a component whose class is built from (settings, config[, next]): the kind
// is the class's base, the type the one its metadata.yaml gives. A component folder that declares
// `proflow_component(<library> CLASS <class> CONFIG <config struct> HEADER <its header>)` needs no
// factory file: the registration CMake writes calls this.
template <class Impl, class ConfigT>
std::unique_ptr<Factory> makeComponentFactory(std::string type) {
  if constexpr (std::is_base_of_v<Extension, Impl>) {
    class F final : public ExtensionFactoryFor<ConfigT> {
     public:
      explicit F(std::string t) : type_(std::move(t)) {}
      std::string_view type() const override { return type_; }
      bool isAuthenticator() const override { return std::is_base_of_v<auth::ServerAuthenticator, Impl>; }
      bool isClientAuthenticator() const override { return std::is_base_of_v<auth::ClientAuthenticator, Impl>; }

     protected:
      std::unique_ptr<Extension> createExtension(const CreateSettings& s, const ConfigT& c) const override {
        return std::make_unique<Impl>(s, c);
      }

     private:
      std::string type_;
    };
    return std::make_unique<F>(std::move(type));
  } else if constexpr (std::is_base_of_v<Receiver, Impl>) {
    class F final : public ReceiverFactoryFor<ConfigT> {
     public:
      explicit F(std::string t) : type_(std::move(t)) {}
      std::string_view type() const override { return type_; }

     protected:
      std::unique_ptr<Receiver> createReceiver(const CreateSettings& s, const ConfigT& c,
                                               ConsumerPtr next) const override {
        return std::make_unique<Impl>(s, c, std::move(next));
      }

     private:
      std::string type_;
    };
    return std::make_unique<F>(std::move(type));
  } else if constexpr (std::is_base_of_v<Processor, Impl>) {
    class F final : public ProcessorFactoryFor<ConfigT> {
     public:
      explicit F(std::string t) : type_(std::move(t)) {}
      std::string_view type() const override { return type_; }

     protected:
      std::unique_ptr<Processor> createProcessor(const CreateSettings& s, const ConfigT& c,
                                                 ConsumerPtr next) const override {
        return std::make_unique<Impl>(s, c, std::move(next));
      }

     private:
      std::string type_;
    };
    return std::make_unique<F>(std::move(type));
  } else {
    static_assert(std::is_base_of_v<Exporter, Impl>, "a component class derives from Receiver, Processor, "
                                                     "Exporter or Extension (connectors keep a factory)");
    class F final : public ExporterFactoryFor<ConfigT> {
     public:
      explicit F(std::string t) : type_(std::move(t)) {}
      std::string_view type() const override { return type_; }

     protected:
      std::unique_ptr<Exporter> createExporter(const CreateSettings& s, const ConfigT& c) const override {
        return std::make_unique<Impl>(s, c);
      }

     private:
      std::string type_;
    };
    return std::make_unique<F>(std::move(type));
  }
}

}  // namespace proflow
