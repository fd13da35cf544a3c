// The HTTP front end: uploads for CI scripts and the debuginfod protocol for readers.
//
//   PUT /debuginfo/<build-id>              a debug file (objcopy --only-keep-debug) or unstripped binary
//   PUT /debuginfo/<build-id>/executable   the (stripped) executable
//   GET /buildid/<build-id>/debuginfo      debuginfod: 200 + the file, else 404
//   GET /buildid/<build-id>/executable
//   GET /buildid/<build-id>/source/<path>  404: sources are not stored
//
// Uploads answer 201 when stored, 400 (not ELF, build id mismatch, malformed id), 413 (over
// max_upload_size, refused while reading the body), 401 (auth), 429 + Retry-After when uploads and
// downloads in progress hold max_in_flight_bytes.
#pragma once

#include "core/net/http_server.h"
#include "core/runtime/runtime.h"
#include "extensions/symbolstore/symbol_store.h"

namespace proflow::extensions::symbolstore {

// Adds the routes; handlers do their disk and upstream work on `runtime`'s worker pool. A download
// claims its file's size on `budget` (the server's in-flight budget) while it is held in memory.
void addHttpRoutes(net::HttpServer& server, SymbolStore& store, Runtime& runtime,
                   std::shared_ptr<net::InFlightBudget> budget);

}  // namespace proflow::extensions::symbolstore
