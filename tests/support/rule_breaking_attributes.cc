#include "tests/support/rule_breaking_attributes.h"

namespace proflow::testing {

void addRuleBreakingAttributes(otlp::Request* request) {
  auto* res = request->mutable_resource_profiles(0)->mutable_resource();
  for (const char* value : {"first", "second"}) {
    auto* kv = res->add_attributes();
    kv->set_key("tenant");
    kv->mutable_value()->set_string_value(value);
  }
  request->mutable_dictionary()->add_string_table("region");
  auto* both = res->add_attributes();
  both->set_key("zone");
  both->set_key_strindex(request->dictionary().string_table_size() - 1);
  both->mutable_value()->set_string_value("eu");
}

}  // namespace proflow::testing
