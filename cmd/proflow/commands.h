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
// `proflow convert` of an input of 4 MiB or more: runs the process again with glibc's
// transparent-huge-page heap (GLIBC_TUNABLES=glibc.malloc.hugetlb=1) unless GLIBC_TUNABLES is set
// already. Returns when it does not re-execute.
void execConvertWithHugePageHeap(char** argv, const std::string& input);
// Exit 0 when a running daemon's /healthz answers 200 (for container health checks and probes).
int commandHealth(const CliArgs& args);

}  // namespace proflow
