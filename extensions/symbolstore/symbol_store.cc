#include "extensions/symbolstore/symbol_store.h"

#include <filesystem>
#include <fstream>

#include "core/telemetry/component_telemetry.h"

namespace proflow::extensions::symbolstore {

namespace fs = std::filesystem;

namespace {

bool writeFile(const std::string& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  return static_cast<bool>(out);
}

}  // namespace

SymbolStore::SymbolStore(const CreateSettings& settings, const SymbolStoreConfig& config)
    : settings_(settings),
      files_(config.directory, config.quota_bytes.bytes),
      max_upload_(config.max_upload_size.bytes),
      upstream_(config.upstream_debuginfod),
      upstream_timeout_(std::chrono::duration_cast<std::chrono::milliseconds>(config.upstream_timeout.value)),
      upstream_miss_ttl_(config.upstream_miss_ttl.value),
      upstream_max_concurrent_(config.upstream_max_concurrent) {
  if (!upstream_.empty()) {
    net::HttpClientOptions o;
    o.max_response_bytes = max_upload_;
    client_ = std::make_unique<net::HttpClient>(o);
  }
}

Status SymbolStore::open() {
  Status s = files_.open();
  updateGauges();
  return s;
}

Status SymbolStore::storeFile(const std::string& temp_path, const std::string& build_id, Artifact artifact,
                              const char* protocol) {
  const char* reason = "store_error";
  Status s = files_.commit(temp_path, build_id, artifact, &reason);
  if (!s.isOk()) {
    countRefused(protocol, reason);
    settings_.logger->info("refused {} upload of {} {}: {}", protocol, build_id, artifactName(artifact), s.message());
    return s;
  }
  auto labels = settings_.telemetry->labels();
  labels.emplace_back("protocol", protocol);
  settings_.telemetry->registry()
      .counter(settings_.telemetry->prefix() + "symbolstore_uploads_total", "files stored, by upload protocol", labels)
      .add();
  settings_.logger->info("stored {} {} ({} upload)", build_id, artifactName(artifact), protocol);
  updateGauges();
  return s;
}

Status SymbolStore::storeBytes(std::string_view bytes, const std::string& build_id, Artifact artifact,
                               const char* protocol) {
  const std::string temp = files_.newTempPath();
  if (!writeFile(temp, bytes)) {
    std::error_code ec;
    fs::remove(temp, ec);
    countRefused(protocol, "store_error");
    return Status::unavailable("cannot write the upload to the store's disk");
  }
  return storeFile(temp, build_id, artifact, protocol);
}

void SymbolStore::countRefused(const char* protocol, const char* reason) {
  auto labels = settings_.telemetry->labels();
  labels.emplace_back("protocol", protocol);
  labels.emplace_back("reason", reason);
  settings_.telemetry->registry()
      .counter(settings_.telemetry->prefix() + "symbolstore_uploads_refused_total", "uploads refused, by reason",
               labels)
      .add();
}

void SymbolStore::updateGauges() {
  FileStore::Stats st = files_.stats();
  auto& reg = settings_.telemetry->registry();
  const std::string& prefix = settings_.telemetry->prefix();
  const auto& labels = settings_.telemetry->labels();
  reg.gauge(prefix + "symbolstore_bytes", "bytes of files in the store", labels).set(static_cast<int64_t>(st.bytes));
  reg.gauge(prefix + "symbolstore_files", "files in the store", labels).set(static_cast<int64_t>(st.files));
  reg.gauge(prefix + "symbolstore_evictions", "files evicted for the quota since start", labels)
      .set(static_cast<int64_t>(st.evictions));
}

std::optional<std::string> SymbolStore::find(const std::string& build_id, Artifact artifact) {
  auto labels = settings_.telemetry->labels();
  labels.emplace_back("artifact", artifactName(artifact));
  auto count = [&](const char* result) {
    auto l = labels;
    l.emplace_back("result", result);
    settings_.telemetry->registry()
        .counter(settings_.telemetry->prefix() + "symbolstore_lookups_total",
                 "debuginfod lookups, by result (hit, upstream, miss)", l)
        .add();
  };
  if (auto path = files_.find(build_id, artifact)) {
    count("hit");
    return path;
  }
  if (auto path = fetchUpstream(build_id, artifact)) {
    count("upstream");
    return path;
  }
  count("miss");
  return std::nullopt;
}

std::optional<std::string> SymbolStore::fetchUpstream(const std::string& build_id, Artifact artifact) {
  if (upstream_.empty()) return std::nullopt;
  const std::string key = build_id + "/" + artifactName(artifact);
  const auto now = std::chrono::steady_clock::now();
  {
    std::lock_guard lock(misses_mu_);
    if (auto it = misses_.find(key); it != misses_.end()) {
      if (now < it->second) return std::nullopt;
      misses_.erase(it);
    }
  }
  // Downloads hold worker threads the pipelines share: beyond the cap a lookup is a miss (not cached).
  if (upstream_in_progress_.fetch_add(1) >= upstream_max_concurrent_) {
    upstream_in_progress_.fetch_sub(1);
    return std::nullopt;
  }
  std::optional<std::string> found = askUpstream(build_id, artifact);
  upstream_in_progress_.fetch_sub(1);
  if (!found) {
    std::lock_guard lock(misses_mu_);
    if (misses_.size() >= kMaxRememberedMisses) misses_.clear();
    misses_[key] = now + upstream_miss_ttl_;
  }
  return found;
}

std::optional<std::string> SymbolStore::askUpstream(const std::string& build_id, Artifact artifact) {
  for (const auto& base : upstream_) {
    std::string url = base;
    if (url.empty() || url.back() != '/') url += '/';
    url += "buildid/" + build_id + "/" + artifactName(artifact);
    net::HttpResult r = client_->request("GET", url, {}, {}, upstream_timeout_);
    if (!r.status.isOk() || r.http_status != 200) {
      if (r.http_status != 404)
        settings_.logger->debug("upstream {}: {}", url, r.status.isOk() ? std::to_string(r.http_status) : r.status.message());
      continue;
    }
    // Checked like an upload: an upstream answering with the wrong file must not poison the store.
    if (Status s = storeBytes(r.body, build_id, artifact, "upstream"); !s.isOk()) {
      settings_.logger->warn("upstream {} returned an unusable file: {}", url, s.message());
      continue;
    }
    return files_.find(build_id, artifact);
  }
  return std::nullopt;
}

}  // namespace proflow::extensions::symbolstore
