// Datadog tags -> OTel resource attributes (semantic conventions where one exists).
//
//   service               -> service.name ("unknown_service" when no tag says)
//   env (default_env)     -> deployment.environment.name (default_env, the Agent's, only without env)
//   version               -> service.version
//   host, hostname        -> host.name
//   runtime               -> process.runtime.name        (nodejs, go, jvm, python, ...)
//   runtime_version       -> process.runtime.version
//   runtime-id            -> service.instance.id         (the tracer's per-process UUID)
//   language              -> telemetry.sdk.language      ("javascript" -> "nodejs", "jvm" -> "java")
//   process_id, pid       -> process.pid
//   container_id          -> container.id                (also the Datadog-Container-ID header)
//   anything else         -> datadog.<tag>               (e.g. datadog.profiler_version)
// The first value of a key wins (a tag the profiler sent beats one the Agent added); `family` from
// event.json becomes datadog.profiler.family.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "receivers/datadog/intake.h"

namespace proflow::receivers::datadog {

// `profiler_tags` from the upload, then `header_tags` (X-Datadog-Additional-Tags, Datadog-Container-ID).
std::vector<std::pair<std::string, std::string>> resourceAttributes(const Tags& profiler_tags, const Tags& header_tags,
                                                                    const std::string& family);

}  // namespace proflow::receivers::datadog
