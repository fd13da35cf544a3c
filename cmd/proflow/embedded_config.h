// config/proflow.yaml compiled into the binary: what `proflow` runs when no --config is given.
#pragma once

namespace proflow {
extern const char* const kEmbeddedDefaultConfig;
}
