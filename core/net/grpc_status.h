// Converts between proflow's Status and gRPC statuses, including OTLP's RetryInfo detail
// (google.rpc.RetryInfo in grpc-status-details-bin) that makes RESOURCE_EXHAUSTED retryable.
#pragma once

#include <grpcpp/support/status.h>

#include "core/util/status.h"

namespace proflow {

// kPayloadTooLarge -> RESOURCE_EXHAUSTED without RetryInfo (permanent); retryable refusals carry
// RetryInfo with retryAfter() (1 s when unset).
grpc::Status toGrpcStatus(const Status& s);

// RESOURCE_EXHAUSTED is retryable only when the peer attached RetryInfo (OTLP rule); its delay
// becomes retryAfter().
Status fromGrpcStatus(const grpc::Status& s);

}  // namespace proflow
