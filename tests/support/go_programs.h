// Go programs the tests build and run: each lives in a module of its own under testdata/ (go.mod, and
// go.sum where it has dependencies, every version pinned). Builds run in module mode with the go
// command on PATH, or Go's own toolchain at /usr/local/go when the one on PATH is older than the
// module's go line (never a toolchain fetched at build time), go.sum enforced, and one build cache per
// build tree. Programs that use only the standard library build offline, with any Go from 1.19 (Debian
// 12's) on; those with dependencies need the Go module proxy, and their tests skip with the reason
// where it cannot be reached (or fail, where every test is required).
#pragma once

#include <string>

namespace proflow::testing {

// `s` as one word for /bin/sh, in single quotes.
std::string shellQuote(const std::string& s);

// Builds the main package of the module in `module_dir` into `output`; `ldflags` may be empty.
// Programs without dependencies (no go.sum) build with the proxy off. Returns "" or what went
// wrong, with go's output.
std::string goBuild(const std::string& module_dir, const std::string& output, const std::string& ldflags = "");

// Why the module in `module_dir` cannot have its dependencies ("" when it can): `go mod download`
// through the configured module proxy, once per module and process. The text names go's error.
std::string goModulesRefused(const std::string& module_dir);

// The pprof tool (github.com/google/pprof at the version tests/support/go/pprof/go.mod pins), built
// once per build tree under a file lock. Empty with `error` set when it cannot be had; check
// goModulesRefused(pprofToolModule()) first to skip where the proxy is out of reach.
std::string pprofTool(std::string* error);
std::string pprofToolModule();

}  // namespace proflow::testing
