#include "processors/symbolize/config.h"

#include <set>

#include "core/component/component.h"

namespace proflow::symbolize {

void SymbolizeConfig::validate(config::ValidationContext& ctx) const {
  if (cache_size_mb < 1) ctx.error("cache_size_mb", "must be at least 1");
  if (not_found_ttl.value.count() < 0) ctx.error("not_found_ttl", "must not be negative");
  if (address_kind != "auto" && address_kind != "runtime" && address_kind != "elf")
    ctx.error("address_kind", "must be auto, runtime or elf, got '" + address_kind + "'");
  std::set<std::string> seen;
  for (const auto& name : order) {
    SourceKind k;
    if (!parseSourceKind(name, &k)) ctx.error("order", "unknown source '" + name +
                                                           "'; valid: debug_dirs, binaries, embedded, debuginfod");
    else if (!seen.insert(name).second) ctx.error("order", "source '" + name + "' listed twice");
  }
  for (const auto& u : debuginfod.urls)
    if (u.rfind("http://", 0) != 0 && u.rfind("https://", 0) != 0)
      ctx.error("debuginfod.urls", "'" + u + "' is not an http:// or https:// URL");
  if (debuginfod.timeout.value.count() <= 0) ctx.error("debuginfod.timeout", "must be positive");
  if (!symbol_source.empty() && !ComponentId::parse(symbol_source))
    ctx.error("symbol_source", "'" + symbol_source + "' is not an extension id (type[/name])");
}

AddressMode addressMode(const SymbolizeConfig& c) {
  if (c.address_kind == "runtime") return AddressMode::kRuntime;
  if (c.address_kind == "elf") return AddressMode::kElf;
  return AddressMode::kAuto;
}

SymbolizerOptions toSymbolizerOptions(const SymbolizeConfig& c) {
  SymbolizerOptions o;
  o.debug_dirs = c.debug_dirs;
  o.binary_dirs = c.binary_dirs;
  o.paths = c.paths;
  o.use_embedded_symbols = c.use_embedded_symbols;
  o.order.clear();
  for (const auto& name : c.order) {
    SourceKind k;
    if (parseSourceKind(name, &k)) o.order.push_back(k);
  }
  o.debuginfod.urls = c.debuginfod.urls;
  o.debuginfod.timeout = c.debuginfod.timeout.ms();
  o.debuginfod.cache_dir = c.debuginfod.cache_dir;
  o.debuginfod.max_size = c.debuginfod.max_size.bytes;
  o.cache_size_bytes = static_cast<size_t>(std::max<int64_t>(1, c.cache_size_mb)) << 20;
  o.not_found_ttl = c.not_found_ttl.value;
  return o;
}

}  // namespace proflow::symbolize
