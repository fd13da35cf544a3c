#include "core/net/server_limits.h"

namespace proflow::net {
namespace {

std::chrono::milliseconds ms(const config::Duration& d) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(d.value);
}

}  // namespace

void ServerLimitsConfig::validate(config::ValidationContext& ctx, uint64_t max_request_body) const {
  if (max_in_flight_bytes.bytes != 0 && max_in_flight_bytes.bytes < max_request_body)
    ctx.error("max_in_flight_bytes", "must be at least max_request_body_size (" +
                                         config::ByteSize(max_request_body).str() + ") or 0 for unlimited");
  if (max_connections < 1) ctx.error("max_connections", "must be at least 1");
  if (read_header_timeout.value <= std::chrono::nanoseconds(0))
    ctx.error("read_header_timeout", "must be greater than 0");
  if (read_body_idle_timeout.value < std::chrono::nanoseconds(0))
    ctx.error("read_body_idle_timeout", "must not be negative");
  if (read_body_timeout.value < std::chrono::nanoseconds(0)) ctx.error("read_body_timeout", "must not be negative");
}

void ServerLimitsConfig::apply(std::shared_ptr<InFlightBudget> budget, HttpServerOptions* opts) const {
  opts->in_flight = std::move(budget);
  opts->max_connections = static_cast<size_t>(max_connections);
  opts->read_header_timeout = ms(read_header_timeout);
  opts->read_timeout = ms(read_body_idle_timeout);
  opts->read_body_timeout = ms(read_body_timeout);
}

std::shared_ptr<InFlightBudget> ServerLimitsConfig::makeBudget() const {
  return std::make_shared<InFlightBudget>(max_in_flight_bytes.bytes);
}

}  // namespace proflow::net
