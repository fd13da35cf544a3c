#include "core/config/option_docs.h"

#include <gtest/gtest.h>

#include "core/config/component_config.h"

namespace proflow::config {
namespace {

struct Tls {
  std::string ca_file;
  bool insecure = false;
  template <class V>
  void visit(V& v) {
    v.field("ca_file", ca_file, "CA bundle");
    v.field("insecure", insecure);
  }
};

struct Rule {
  std::string key;
  template <class V>
  void visit(V& v) {
    v.field("key", key, "attribute key");
  }
};

struct Example {
  std::string endpoint = "127.0.0.1:4317";
  Duration timeout = std::chrono::milliseconds(1500);
  ByteSize max_size = 4_MiB;
  int32_t retries = -1;
  double ratio = 0.5;
  std::optional<Tls> tls;
  std::vector<Rule> rules;
  std::vector<std::string> names = {"a", "b"};
  std::map<std::string, std::string> headers;
  template <class V>
  void visit(V& v) {
    v.field("endpoint", endpoint, "host:port");
    v.field("timeout", timeout, "per request");
    v.field("max_size", max_size);
    v.field("retries", retries);
    v.field("ratio", ratio);
    v.field("tls", tls, "TLS settings");
    v.field("rules", rules, "applied in order");
    v.field("names", names);
    v.field("headers", headers);
  }
};

std::string show(const std::vector<OptionDoc>& docs) {
  std::string out;
  for (const auto& d : docs) out += d.key + " | " + d.type + " | " + d.default_value + " | " + d.help + "\n";
  return out;
}

TEST(OptionDocs, ListsEveryFieldWithTypeDefaultAndHelpFromTheVisit) {
  TypedConfig<Example> config;
  EXPECT_EQ(show(config.options()),
            "endpoint | string | \"127.0.0.1:4317\" | host:port\n"
            "timeout | duration | 1500ms | per request\n"
            "max_size | size | 4MiB | \n"
            "retries | integer | -1 | \n"
            "ratio | number | 0.5 | \n"
            "tls | section |  | TLS settings (off unless set)\n"
            "tls.ca_file | string |  | CA bundle\n"
            "tls.insecure | bool | false | \n"
            "rules | list of sections |  | applied in order\n"
            "rules[].key | string |  | attribute key\n"
            "names | list of string | [\"a\", \"b\"] | \n"
            "headers | map of string |  | \n");
}

}  // namespace
}  // namespace proflow::config
