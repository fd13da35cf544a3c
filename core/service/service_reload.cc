// Service reloads: triggers queue onto one thread, each reload re-reads the config, refuses it when
// invalid and otherwise applies it by difference (core/graph/graph_diff.h, PipelineGraph::takeOver).
#include <spdlog/spdlog.h>

#include <chrono>
#include <sstream>

#include "core/service/service.h"
#include "core/status/status_api.h"

namespace proflow {
namespace {

double unixSeconds() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

void logEveryLine(const std::string& text) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);)
    if (!line.empty()) spdlog::error("  {}", line);
}

}  // namespace

void Service::registerReloadMetrics() {
  reloads_ = &metrics_.counter("proflow_config_reloads_total", "config reloads attempted (SIGHUP, POST /-/reload, --watch-config)");
  reload_successes_ = &metrics_.counter("proflow_config_reload_successes_total", "config reloads applied");
  reload_failures_ =
      &metrics_.counter("proflow_config_reload_failures_total", "config reloads refused (invalid config) or failed to apply");
  last_reload_success_ =
      &metrics_.gauge("proflow_config_last_reload_success", "1 when the last reload (or the start) applied its config, else 0");
  last_reload_success_time_ = &metrics_.gauge("proflow_config_last_reload_success_timestamp_seconds",
                                              "Unix time of the last applied config (start or reload)");
  reloads_coalesced_ = &metrics_.counter("proflow_config_reload_requests_coalesced_total",
                                         "reload requests that joined a reload already waiting to run");
  last_reload_success_->set(1);
  last_reload_success_time_->set(static_cast<int64_t>(unixSeconds()));
}

void Service::setConfigSource(ConfigSource source) {
  std::lock_guard lock(reload_mu_);
  source_ = std::move(source);
}

void Service::requestReload(std::string trigger, std::function<void(const ReloadOutcome&)> done) {
  {
    std::lock_guard lock(queue_mu_);
    if (queue_stopping_) return;
    if (pending_) {
      reloads_coalesced_->add();
    } else {
      pending_.emplace();
      pending_->trigger = std::move(trigger);
    }
    if (done) pending_->waiting.push_back(std::move(done));
  }
  queue_cv_.notify_all();
}

void Service::reloadLoop() {
  for (;;) {
    PendingReload job;
    {
      std::unique_lock lock(queue_mu_);
      queue_cv_.wait(lock, [&] { return queue_stopping_ || pending_.has_value(); });
      if (queue_stopping_) return;
      job = std::move(*pending_);
      pending_.reset();
    }
    const ReloadOutcome outcome = reload(job.trigger);
    for (const auto& done : job.waiting) done(outcome);
  }
}

Service::ReloadOutcome Service::refuse(const std::string& trigger, const std::string& why) {
  reload_failures_->add();
  last_reload_success_->set(0);
  spdlog::error("reload ({}) refused, the running pipelines carry on:", trigger);
  logEveryLine(why);
  return {false, false, why};
}

Service::ReloadOutcome Service::reload(const std::string& trigger) {
  ConfigSource source;
  {
    std::lock_guard lock(reload_mu_);
    source = source_;
  }
  if (!source) {
    reloads_->add();
    return refuse(trigger, "this service has no config source to reload from\n");
  }
  config::ServiceConfig next;
  std::string errors;
  Status s = source(&next, &errors);
  if (!s.isOk()) {
    reloads_->add();
    return refuse(trigger, errors.empty() ? s.message() + "\n" : errors);
  }
  return apply(std::move(next), trigger);
}

Service::ReloadOutcome Service::apply(config::ServiceConfig next, const std::string& trigger) {
  std::lock_guard lock(reload_mu_);
  reloads_->add();
  {
    std::lock_guard down(shutdown_mu_);
    if (shut_down_ || !graph_) return refuse(trigger, "the service is not running\n");
  }
  const graph::GraphDiff diff = graph::diffConfigs(*config_, next);
  if (!diff.extension_changes.empty()) {
    std::string why;
    for (const auto& c : diff.extension_changes)
      why += "extension " + c + ": extensions cannot change while running; restart to apply\n";
    return refuse(trigger, why);
  }
  for (const auto& r : diff.restart_only)
    spdlog::warn("reload ({}): {} needs a restart; keeping the running value", trigger, r);
  // What cannot change live keeps its running value, so the next diff compares against what runs.
  next.telemetry = config_->telemetry;
  next.runtime = config_->runtime;
  auto owner = std::make_shared<config::ServiceConfig>(std::move(next));

  if (diff.empty()) {
    config_ = owner;
    setDescribed(owner);
    if (status_) status_->setConfig(owner);
    reload_successes_->add();
    last_reload_success_->set(1);
    last_reload_success_time_->set(static_cast<int64_t>(unixSeconds()));
    spdlog::info("reload ({}): no component changed", trigger);
    return {true, false, "no component changed: " + diff.summary() + "\n"};
  }

  std::unique_ptr<graph::PipelineGraph> built;
  Status s = graph::PipelineGraph::buildNext(*owner, owner, *graph_, diff, *runtime_, metrics_, &built, tap_.get());
  if (!s.isOk()) return refuse(trigger, s.message() + "\n");
  const auto deadline = std::chrono::steady_clock::now() + owner->shutdown_timeout.value;
  bool switched = false;
  s = built->takeOver(*graph_, *this, deadline, &switched, io_threads_);
  if (!switched) return refuse(trigger, s.message() + "\n");
  std::unique_ptr<graph::PipelineGraph> previous = std::move(graph_);
  graph_ = std::move(built);
  graph::keepPreviousSettings(*graph_, *config_, owner.get());
  config_ = owner;
  setDescribed(owner);
  if (status_) status_->setConfig(owner);
  previous.reset();  // holds nothing that runs any more
  if (!s.isOk()) {
    healthy_ = false;
    reload_failures_->add();
    last_reload_success_->set(0);
    spdlog::error("reload ({}) applied with errors ({}): {}", trigger, diff.summary(), s.message());
    return {false, true, "applied with errors: " + s.message() + "\n" + diff.summary() + "\n"};
  }
  reload_successes_->add();
  last_reload_success_->set(1);
  last_reload_success_time_->set(static_cast<int64_t>(unixSeconds()));
  spdlog::info("reload ({}) applied: {}", trigger, diff.summary());
  return {true, false, "applied: " + diff.summary() + "\n"};
}

}  // namespace proflow
