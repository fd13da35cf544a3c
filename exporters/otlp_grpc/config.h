// Config of the `otlp_grpc` exporter: OTLP profiles over gRPC to a gateway or backend.
//
//   exporters:
//     otlp:
//       endpoint: gateway.example:4317
//       compression: gzip
//       headers: { x-scope-orgid: tenant-1 }
//       tls: { insecure: true }
//       timeout: 10s
//       sending_queue: { num_consumers: 4, queue_size: 500 }
//       retry_on_failure: { initial_interval: 1s }
//
// The settings are those of core's OTLP/gRPC sender (core/exporterhelper/otlp_grpc_sender.h), which
// the `loadbalancing` exporter also runs, once per backend.
#pragma once

#include "core/exporterhelper/otlp_grpc_sender.h"

namespace proflow::exporters::otlp {

using OtlpExporterConfig = exporterhelper::OtlpGrpcConfig;

}  // namespace proflow::exporters::otlp
