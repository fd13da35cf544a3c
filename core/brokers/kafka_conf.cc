#include "core/brokers/kafka_conf.h"

namespace proflow::brokers {

KafkaConfPtr buildKafkaConf(const std::map<std::string, std::string>& fixed,
                            const std::map<std::string, std::string>& user, std::vector<std::string>* errors) {
  KafkaConfPtr conf(rd_kafka_conf_new());
  const size_t before = errors->size();
  char err[512];
  for (const auto* props : {&fixed, &user})
    for (const auto& [k, v] : *props)
      if (rd_kafka_conf_set(conf.get(), k.c_str(), v.c_str(), err, sizeof err) != RD_KAFKA_CONF_OK)
        errors->push_back(k + ": " + err);
  if (errors->size() != before) conf.reset();
  return conf;
}

std::string bootstrapServers(const std::vector<std::string>& brokers) {
  std::string out;
  for (const auto& b : brokers) out += (out.empty() ? "" : ",") + b;
  return out;
}

void validateBrokers(const std::vector<std::string>& brokers, config::ValidationContext& ctx) {
  if (brokers.empty()) ctx.error("brokers", "required: a list of host:port, e.g. [kafka-0:9092]");
  for (const auto& b : brokers) {
    const size_t colon = b.rfind(':');
    const std::string port = colon == std::string::npos ? "" : b.substr(colon + 1);
    bool digits = !port.empty() && port.size() <= 5;
    for (char c : port) digits = digits && c >= '0' && c <= '9';
    if (colon == 0 || !digits || std::stoi(port) == 0 || std::stoi(port) > 65535)
      ctx.error("brokers", "'" + b + "' is not host:port");
  }
}

std::string kafkaTopicProblem(const std::string& topic) {
  if (topic.empty()) return "required";
  if (topic.size() > 249) return "longer than 249 characters";
  if (topic == "." || topic == "..") return "'.' and '..' are not topic names";
  for (char c : topic)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-'))
      return "only letters, digits, '.', '_' and '-' are allowed";
  return "";
}

}  // namespace proflow::brokers
