#include "core/config/service_config.h"

#include <algorithm>
#include <set>

#include "core/config/config_loader.h"

namespace proflow::config {
namespace {

std::string joinNames(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out.empty() ? "(none)" : out;
}

const char* sectionName(ComponentKind kind) {
  switch (kind) {
    case ComponentKind::kReceiver: return "receivers";
    case ComponentKind::kProcessor: return "processors";
    case ComponentKind::kExporter: return "exporters";
    case ComponentKind::kExtension: return "extensions";
    case ComponentKind::kConnector: return "connectors";
  }
  return "?";
}

void decodeSection(const ConfigNode& root, ComponentKind kind, const Registry& registry,
                   std::map<ComponentId, ComponentEntry>& out, ConfigErrors& errors,
                   std::vector<std::string>* warnings) {
  const std::string section = sectionName(kind);
  const ConfigNode* node = root.find(section);
  if (!node || node->isNull()) return;
  if (!node->isMap()) {
    errors.add(section, node->location, std::string("expected a map of components, got ") + ConfigNode::kindName(node->kind));
    return;
  }
  for (size_t i = 0; i < node->entries.size(); ++i) {
    const auto& [key, body] = node->entries[i];
    const auto& key_loc = node->key_locations[i];
    const std::string path = section + "." + key;
    auto id = ComponentId::parse(key);
    if (!id) {
      errors.add(path, key_loc, "invalid component id " + quoteValue(key) + ": expected type or type/name ([A-Za-z0-9_.-])");
      continue;
    }
    const Factory* factory = registry.find(kind, id->type);
    if (!factory) {
      errors.add(path, key_loc,
                 "unknown " + std::string(componentKindName(kind)) + " type " + quoteValue(id->type) +
                     "; known types: " + joinNames(registry.types(kind)));
      continue;
    }
    // An old name keeps working, as in the Collector, with its deprecation line; the id stays as
    // written (pipelines name it so).
    if (const std::string* current = registry.aliasTarget(kind, id->type); current && warnings)
      warnings->push_back(key_loc.str() + ": " + path + ": " + deprecatedAliasMessage(id->type, *current));
    ComponentEntry entry;
    entry.id = *id;
    entry.factory = factory;
    entry.location = key_loc;
    entry.settings = body;
    entry.config = factory->createDefaultConfig();
    entry.config->decode(body, path, errors);
    entry.config->validate(errors);
    out.emplace(*id, std::move(entry));
  }
}

// `connectors`, when given, are also valid in this list: they go to `*connector_ids` (with where
// each was listed), not to the result.
std::vector<ComponentId> decodeIdList(const ConfigNode* list, const std::string& path, ComponentKind kind,
                                      const std::map<ComponentId, ComponentEntry>& defined, ConfigErrors& errors,
                                      const std::map<ComponentId, ComponentEntry>* connectors = nullptr,
                                      std::vector<std::pair<ComponentId, SourceLocation>>* connector_ids = nullptr) {
  std::vector<ComponentId> ids;
  if (!list || list->isNull()) return ids;
  if (!list->isSequence()) {
    errors.add(path, list->location, std::string("expected a list of component ids, got ") + ConfigNode::kindName(list->kind));
    return ids;
  }
  std::set<ComponentId> seen;
  for (size_t i = 0; i < list->items.size(); ++i) {
    const auto& item = list->items[i];
    const std::string item_path = path + "[" + std::to_string(i) + "]";
    if (!item.isScalar()) {
      errors.add(item_path, item.location, "expected a component id");
      continue;
    }
    auto id = ComponentId::parse(item.scalar);
    if (!id) {
      errors.add(item_path, item.location, "invalid component id " + quoteValue(item.scalar));
      continue;
    }
    const bool is_connector = connectors && !defined.count(*id) && connectors->count(*id);
    if (!defined.count(*id) && !is_connector) {
      std::vector<std::string> names;
      for (const auto& [k, v] : defined) names.push_back(k.str());
      std::string where = std::string(sectionName(kind)) + " section; defined: " + joinNames(names);
      if (connectors && !connectors->empty()) {
        std::vector<std::string> connector_names;
        for (const auto& [k, v] : *connectors) connector_names.push_back(k.str());
        where = std::string(sectionName(kind)) + " or connectors section; defined " + sectionName(kind) + ": " +
                joinNames(names) + "; connectors: " + joinNames(connector_names);
      }
      errors.add(item_path, item.location,
                 std::string(componentKindName(kind)) + " '" + id->str() + "' is not defined in the " + where);
      continue;
    }
    if (!seen.insert(*id).second) {
      errors.add(item_path, item.location, "'" + id->str() + "' is listed twice");
      continue;
    }
    if (is_connector)
      connector_ids->emplace_back(*id, item.location);
    else
      ids.push_back(*id);
  }
  return ids;
}

void decodePipelines(const ConfigNode& pipelines, ServiceConfig& cfg, ConfigErrors& errors) {
  if (pipelines.isNull()) return;
  if (!pipelines.isMap()) {
    errors.add("service.pipelines", pipelines.location, "expected a map of pipelines");
    return;
  }
  for (size_t i = 0; i < pipelines.entries.size(); ++i) {
    const auto& [name, body] = pipelines.entries[i];
    const auto& loc = pipelines.key_locations[i];
    const std::string path = "service.pipelines." + name;
    auto id = ComponentId::parse(name);
    if (!id || id->type != "profiles") {
      errors.add(path, loc,
                 "pipeline '" + name + "': proflow carries profiles only; name pipelines 'profiles' or 'profiles/<name>'");
      continue;
    }
    if (!body.isMap()) {
      errors.add(path, body.location, "expected a map with receivers, processors and exporters");
      continue;
    }
    for (size_t k = 0; k < body.entries.size(); ++k) {
      const auto& key = body.entries[k].first;
      if (key != "receivers" && key != "processors" && key != "exporters")
        errors.add(path + "." + key, body.key_locations[k],
                   "unknown key '" + key + "'; valid keys: exporters, processors, receivers");
    }
    PipelineConfig p;
    p.name = name;
    p.location = loc;
    std::vector<std::pair<ComponentId, SourceLocation>> from, to;
    p.receivers = decodeIdList(body.find("receivers"), path + ".receivers", ComponentKind::kReceiver, cfg.receivers,
                               errors, &cfg.connectors, &from);
    p.processors =
        decodeIdList(body.find("processors"), path + ".processors", ComponentKind::kProcessor, cfg.processors, errors);
    p.exporters = decodeIdList(body.find("exporters"), path + ".exporters", ComponentKind::kExporter, cfg.exporters,
                               errors, &cfg.connectors, &to);
    for (auto& [id, loc] : from) {
      p.from_connectors.push_back(id);
      p.connector_locations[{false, id}] = loc;
    }
    for (auto& [id, loc] : to) {
      p.to_connectors.push_back(id);
      p.connector_locations[{true, id}] = loc;
    }
    if (!body.find("receivers") || body.find("receivers")->items.empty())
      errors.add(path + ".receivers", body.keyLocation("receivers"), "a pipeline needs at least one receiver");
    if (!body.find("exporters") || body.find("exporters")->items.empty())
      errors.add(path + ".exporters", body.keyLocation("exporters"), "a pipeline needs at least one exporter");
    cfg.pipelines.push_back(std::move(p));
  }
}

// Every `auth: { authenticator: <id> }` below `node` must name an auth extension that runs, i.e. one
// listed in service.extensions. Checked on the YAML tree so every component's auth block is covered
// without the component declaring it anywhere else.
void checkAuthReferences(const ConfigNode& node, const std::string& path, const ServiceConfig& cfg,
                         ConfigErrors& errors) {
  if (node.isSequence()) {
    for (size_t i = 0; i < node.items.size(); ++i)
      checkAuthReferences(node.items[i], path + "[" + std::to_string(i) + "]", cfg, errors);
    return;
  }
  if (!node.isMap()) return;
  for (const auto& [key, child] : node.entries) {
    const std::string child_path = path + "." + key;
    const ConfigNode* ref = key == "auth" && child.isMap() ? child.find("authenticator") : nullptr;
    if (!ref || !ref->isScalar()) {
      checkAuthReferences(child, child_path, cfg, errors);
      continue;
    }
    const std::string ref_path = child_path + ".authenticator";
    auto id = ComponentId::parse(ref->scalar);
    auto entry = id ? cfg.extensions.find(*id) : cfg.extensions.end();
    // An exporter's `auth` names an extension that sets request headers (a client authenticator,
    // headers_setter); everything else's names one that checks them.
    const bool client = child_path.rfind("exporters.", 0) == 0;
    auto fits = [client](const Factory* f) {
      const auto* e = static_cast<const ExtensionFactory*>(f);
      return client ? e->isClientAuthenticator() : e->isAuthenticator();
    };
    std::vector<std::string> auth_ids;
    for (const auto& [k, e] : cfg.extensions)
      if (fits(e.factory)) auth_ids.push_back(k.str());
    if (entry == cfg.extensions.end())
      errors.add(ref_path, ref->location,
                 "extension '" + ref->scalar + "' is not defined in the extensions section; auth extensions defined: " +
                     joinNames(auth_ids));
    else if (!fits(entry->second.factory))
      errors.add(ref_path, ref->location,
                 "extension '" + ref->scalar + "' is not an authenticator" +
                     (client ? " exporters can use" : " receivers can use") + "; auth extensions defined: " +
                     joinNames(auth_ids));
    else if (std::find(cfg.enabled_extensions.begin(), cfg.enabled_extensions.end(), *id) ==
             cfg.enabled_extensions.end())
      errors.add(ref_path, ref->location, "extension '" + ref->scalar + "' is not listed in service.extensions");
  }
}

void checkAllAuthReferences(const ConfigNode& root, const ServiceConfig& cfg, ConfigErrors& errors) {
  for (const char* section : {"receivers", "exporters", "processors", "extensions", "connectors"})
    if (const ConfigNode* n = root.find(section)) checkAuthReferences(*n, section, cfg, errors);
  if (const ConfigNode* service = root.find("service"))
    if (const ConfigNode* t = service->find("telemetry")) checkAuthReferences(*t, "service.telemetry", cfg, errors);
}

}  // namespace

const std::map<ComponentId, ComponentEntry>& ServiceConfig::section(ComponentKind kind) const {
  switch (kind) {
    case ComponentKind::kReceiver: return receivers;
    case ComponentKind::kProcessor: return processors;
    case ComponentKind::kExporter: return exporters;
    case ComponentKind::kExtension: return extensions;
    case ComponentKind::kConnector: return connectors;
  }
  return receivers;
}

namespace {

constexpr int kMaxThreads = 1024;

void decodeRuntime(const ConfigNode& node, RuntimeConfig& runtime, ConfigErrors& errors) {
  FieldLocations locs;
  FieldReader reader(node, "service.runtime", errors, &locs);
  runtime.visit(reader);
  reader.finish();
  auto check = [&](const char* key, int value) {
    const std::string path = std::string("service.runtime.") + key;
    if (value < 0 || value > kMaxThreads)
      errors.add(path, locs[path],
                 std::string(key) + " must be between 0 (sized to the usable CPUs) and " + std::to_string(kMaxThreads) +
                     ", got " + std::to_string(value));
  };
  check("workers", runtime.workers);
  check("io_threads", runtime.io_threads);
}

}  // namespace

ServiceConfig buildServiceConfig(const ConfigNode& root, const Registry& registry, ConfigErrors& errors,
                                 std::vector<std::string>* warnings) {
  ServiceConfig cfg;
  static const std::set<std::string> kTopLevel = {"receivers",  "processors", "exporters",
                                                  "extensions", "connectors", "service"};
  for (size_t i = 0; i < root.entries.size(); ++i)
    if (!kTopLevel.count(root.entries[i].first))
      errors.add(root.entries[i].first, root.key_locations[i],
                 "unknown top-level key " + quoteValue(root.entries[i].first) +
                     "; valid keys: connectors, exporters, extensions, processors, receivers, service");

  decodeSection(root, ComponentKind::kReceiver, registry, cfg.receivers, errors, warnings);
  decodeSection(root, ComponentKind::kProcessor, registry, cfg.processors, errors, warnings);
  decodeSection(root, ComponentKind::kExporter, registry, cfg.exporters, errors, warnings);
  decodeSection(root, ComponentKind::kExtension, registry, cfg.extensions, errors, warnings);
  decodeSection(root, ComponentKind::kConnector, registry, cfg.connectors, errors, warnings);

  const ConfigNode* service = root.find("service");
  if (!service || !service->isMap()) {
    errors.add("service", service ? service->location : root.location,
               "a 'service' section with at least one pipeline is required");
    return cfg;
  }
  for (size_t i = 0; i < service->entries.size(); ++i) {
    const auto& key = service->entries[i].first;
    if (key != "pipelines" && key != "telemetry" && key != "extensions" && key != "shutdown_timeout" &&
        key != "runtime")
      errors.add("service." + key, service->key_locations[i],
                 "unknown key '" + key + "'; valid keys: extensions, pipelines, runtime, shutdown_timeout, telemetry");
  }
  if (const ConfigNode* r = service->find("runtime")) decodeRuntime(*r, cfg.runtime, errors);
  if (const ConfigNode* t = service->find("telemetry")) {
    FieldLocations locs;
    FieldReader reader(*t, "service.telemetry", errors, &locs);
    cfg.telemetry.visit(reader);
    reader.finish();
    auto& logs = cfg.telemetry.logs;
    // The Collector's zap levels above error log as error here; its `console` encoding is text.
    if (logs.level == "dpanic" || logs.level == "panic" || logs.level == "fatal") logs.level = "error";
    if (logs.encoding == "console") logs.encoding = "text";
    static const std::set<std::string> kLevels = {"trace", "debug", "info", "warn", "error", "off"};
    if (!kLevels.count(logs.level))
      errors.add("service.telemetry.logs.level", locs["service.telemetry.logs.level"],
                 "unknown log level '" + logs.level + "'; valid: debug, error, info, off, trace, warn");
    if (logs.encoding != "text" && logs.encoding != "json")
      errors.add("service.telemetry.logs.encoding", locs["service.telemetry.logs.encoding"],
                 "unknown log encoding '" + logs.encoding + "'; valid: console, json, text");
    if (logs.output_paths.empty())
      errors.add("service.telemetry.logs.output_paths", locs["service.telemetry.logs.output_paths"],
                 "at least one path (stderr, stdout or a file)");
    for (auto [key, node] : {std::pair{"sampling", &logs.sampling}, std::pair{"initial_fields", &logs.initial_fields},
                             std::pair{"development", &logs.development},
                             std::pair{"disable_caller", &logs.disable_caller},
                             std::pair{"disable_stacktrace", &logs.disable_stacktrace},
                             std::pair{"processors", &logs.processors}})
      if (!node->isNull())
        errors.add(std::string("service.telemetry.logs.") + key, node->location,
                   "not supported: proflow logs every line at its level (level, encoding and output_paths are)");
    auto& metrics = cfg.telemetry.metrics;
    static const std::set<std::string> kMetricLevels = {"none", "basic", "normal", "detailed"};
    if (!kMetricLevels.count(metrics.level))
      errors.add("service.telemetry.metrics.level", locs["service.telemetry.metrics.level"],
                 "unknown level '" + metrics.level + "'; valid: basic, detailed, none, normal");
    // readers: the Collector's current spelling of the endpoint's address.
    const std::string readers_at = "service.telemetry.metrics.readers";
    int pulls = 0;
    for (size_t i = 0; i < metrics.readers.size(); ++i) {
      const auto& r = metrics.readers[i];
      const std::string at = readers_at + "[" + std::to_string(i) + "]";
      if (!r.periodic.isNull())
        errors.add(at + ".periodic", locs[readers_at],
                   "not supported: proflow serves its metrics for pull (readers[].pull.exporter.prometheus); "
                   "a Prometheus or Collector scraping it can forward them");
      if (!r.pull) continue;
      if (!r.pull->exporter.prometheus) {
        errors.add(at + ".pull.exporter", locs[readers_at], "only the prometheus pull exporter is supported");
        continue;
      }
      const auto& p = *r.pull->exporter.prometheus;
      if (p.port < 0 || p.port > 65535)
        errors.add(at + ".pull.exporter.prometheus.port", locs[readers_at], "must be 0..65535");
      if (++pulls > 1) {
        errors.add(at, locs[readers_at], "one pull reader is supported (the telemetry endpoint has one address)");
        continue;
      }
      const ConfigNode* m = t->find("metrics");
      if (m && m->find("address"))
        errors.add("service.telemetry.metrics.address", locs["service.telemetry.metrics.address"],
                   "set address or readers, not both");
      const std::string host = p.host.find(':') != std::string::npos ? "[" + p.host + "]" : p.host;
      metrics.address = host + ":" + std::to_string(p.port);
    }
    if (metrics.level == "none") metrics.address = "none";
    validateStatusConfig(cfg.telemetry.status, "service.telemetry.status", locs, errors);
    if (const auto& tls = cfg.telemetry.metrics.tls) {
      ValidationContext ctx(errors, "service.telemetry.metrics.tls", locs, t->location);
      tls->validate(ctx);
    }
  }
  if (const ConfigNode* d = service->find("shutdown_timeout")) {
    if (!d->isScalar() || !parseDuration(d->scalar))
      errors.add("service.shutdown_timeout", d->location, "expected a duration like 15s");
    else
      cfg.shutdown_timeout = *parseDuration(d->scalar);
  }
  cfg.enabled_extensions =
      decodeIdList(service->find("extensions"), "service.extensions", ComponentKind::kExtension, cfg.extensions, errors);

  checkAllAuthReferences(root, cfg, errors);

  const ConfigNode* pipelines = service->find("pipelines");
  if (!pipelines || pipelines->isNull() || (pipelines->isMap() && pipelines->entries.empty())) {
    errors.add("service.pipelines", service->keyLocation("pipelines"), "at least one pipeline is required");
  } else {
    decodePipelines(*pipelines, cfg, errors);
    checkConnectorGraph(cfg, errors);
  }
  return cfg;
}

namespace {

Status finishLoad(const LoadResult& loaded, const Registry& registry, ConfigErrors& errors, ServiceConfig* out,
                  std::string* error_text, std::vector<std::string>* warnings) {
  std::vector<std::string> found = loaded.warnings;
  if (errors.empty()) *out = buildServiceConfig(loaded.root, registry, errors, &found);
  if (warnings) *warnings = std::move(found);
  if (!errors.empty()) {
    if (error_text) *error_text = errors.format();
    return Status::invalid(std::to_string(errors.size()) + " configuration error(s)");
  }
  return Status::ok();
}

}  // namespace

Status loadServiceConfig(const std::vector<std::string>& paths, const Registry& registry, ServiceConfig* out,
                         std::string* error_text, std::vector<std::string>* warnings) {
  ConfigErrors errors;
  if (paths.empty()) errors.add("", {}, "no config file given (--config FILE)");
  auto loaded = loadFiles(paths, errors);
  return finishLoad(loaded, registry, errors, out, error_text, warnings);
}

Status loadServiceConfigText(const std::string& yaml, const std::string& source_name, const Registry& registry,
                             ServiceConfig* out, std::string* error_text, std::vector<std::string>* warnings,
                             const std::vector<std::string>& overlays) {
  ConfigErrors errors;
  auto loaded = parseYaml(yaml, source_name, errors);
  if (!overlays.empty()) {
    auto over = loadFiles(overlays, errors);
    loaded.warnings.insert(loaded.warnings.end(), over.warnings.begin(), over.warnings.end());
    if (loaded.root.isMap()) mergeInto(loaded.root, over.root);
  }
  return finishLoad(loaded, registry, errors, out, error_text, warnings);
}

}  // namespace proflow::config
