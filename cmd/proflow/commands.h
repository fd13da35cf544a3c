// The proflow subcommands.
#pragma once

#include "cmd/proflow/cli.h"

namespace proflow {

int commandRun(const CliArgs& args);
int commandValidate(const CliArgs& args);
int commandComponents();
int commandVersion();
int commandConvert(const CliArgs& args);

}  // namespace proflow
