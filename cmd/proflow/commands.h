// The proflow subcommands.
#pragma once

#include "cmd/proflow/cli.h"

namespace proflow {

int commandRun(const CliArgs& args);
int commandValidate(const CliArgs& args);
// No TYPE: lists every type; with TYPE (`components [--help] TYPE`): that type's options.
int commandComponents(const CliArgs& args);
int commandVersion();
int commandConvert(const CliArgs& args);
// Exit 0 when a running daemon's /healthz answers 200 (for container health checks and probes).
int commandHealth(const CliArgs& args);

}  // namespace proflow
