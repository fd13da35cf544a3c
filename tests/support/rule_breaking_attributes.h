// Resource attributes that break OTLP's rules, as a careless sender might send them, for the tests
// of how every reader reads such a list (core/flat/flat_attributes.h).
#pragma once

#include "core/model/otlp_types.h"

namespace proflow::testing {

// Adds to the first resource: tenant=first then tenant=second (a key given twice), and an attribute
// with the inline key "zone" and key_strindex "region" (both forms, which OTLP forbids), value "eu".
void addRuleBreakingAttributes(otlp::Request* request);

}  // namespace proflow::testing
