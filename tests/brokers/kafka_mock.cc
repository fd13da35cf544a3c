#include "tests/brokers/kafka_mock.h"

#include <chrono>
#include <sstream>

namespace proflow::testing {

KafkaMock::KafkaMock(int brokers) {
  char err[256];
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  rd_kafka_conf_set(conf, "log_level", "3", err, sizeof err);
  handle_ = rd_kafka_new(RD_KAFKA_PRODUCER, conf, err, sizeof err);
  if (handle_ != nullptr) cluster_ = rd_kafka_mock_cluster_new(handle_, brokers);
}

KafkaMock::~KafkaMock() {
  if (cluster_ != nullptr) rd_kafka_mock_cluster_destroy(cluster_);
  if (handle_ != nullptr) rd_kafka_destroy(handle_);
}

std::string KafkaMock::bootstraps() const { return rd_kafka_mock_cluster_bootstraps(cluster_); }

std::string KafkaMock::brokersYaml() const {
  std::string out = "[";
  std::stringstream in(bootstraps());
  std::string one;
  while (std::getline(in, one, ',')) out += (out.size() > 1 ? ", " : "") + one;
  return out + "]";
}

bool KafkaMock::createTopic(const std::string& topic, int partitions) {
  return rd_kafka_mock_topic_create(cluster_, topic.c_str(), partitions, 1) == RD_KAFKA_RESP_ERR_NO_ERROR;
}

std::vector<KafkaMock::Record> KafkaMock::readAll(const std::string& topic, size_t expected, int timeout_ms) {
  std::vector<Record> out;
  char err[256];
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  rd_kafka_conf_set(conf, "bootstrap.servers", bootstraps().c_str(), err, sizeof err);
  rd_kafka_conf_set(conf, "group.id", ("reader-" + std::to_string(rand())).c_str(), err, sizeof err);
  rd_kafka_conf_set(conf, "auto.offset.reset", "earliest", err, sizeof err);
  rd_kafka_t* rk = rd_kafka_new(RD_KAFKA_CONSUMER, conf, err, sizeof err);
  if (rk == nullptr) return out;
  rd_kafka_poll_set_consumer(rk);
  rd_kafka_topic_partition_list_t* topics = rd_kafka_topic_partition_list_new(1);
  rd_kafka_topic_partition_list_add(topics, topic.c_str(), RD_KAFKA_PARTITION_UA);
  rd_kafka_subscribe(rk, topics);
  rd_kafka_topic_partition_list_destroy(topics);
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  while (out.size() < expected && std::chrono::steady_clock::now() < until) {
    rd_kafka_message_t* m = rd_kafka_consumer_poll(rk, 100);
    if (m == nullptr) continue;
    if (m->err == RD_KAFKA_RESP_ERR_NO_ERROR) {
      Record r;
      r.partition = m->partition;
      if (m->key != nullptr) r.key.assign(static_cast<const char*>(m->key), m->key_len);
      if (m->payload != nullptr) r.value.assign(static_cast<const char*>(m->payload), m->len);
      rd_kafka_headers_t* h = nullptr;
      if (rd_kafka_message_headers(m, &h) == RD_KAFKA_RESP_ERR_NO_ERROR) {
        const char* name = nullptr;
        const void* value = nullptr;
        size_t size = 0;
        for (size_t i = 0; rd_kafka_header_get_all(h, i, &name, &value, &size) == RD_KAFKA_RESP_ERR_NO_ERROR; ++i)
          r.headers.emplace_back(name, std::string(static_cast<const char*>(value), size));
      }
      out.push_back(std::move(r));
    }
    rd_kafka_message_destroy(m);
  }
  rd_kafka_consumer_close(rk);
  rd_kafka_destroy(rk);
  return out;
}

int64_t KafkaMock::committedTotal(const std::string& group, const std::string& topic, int partitions) {
  char err[256];
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  rd_kafka_conf_set(conf, "bootstrap.servers", bootstraps().c_str(), err, sizeof err);
  rd_kafka_conf_set(conf, "group.id", group.c_str(), err, sizeof err);
  rd_kafka_t* rk = rd_kafka_new(RD_KAFKA_CONSUMER, conf, err, sizeof err);
  if (rk == nullptr) return -1;
  rd_kafka_topic_partition_list_t* list = rd_kafka_topic_partition_list_new(partitions);
  for (int p = 0; p < partitions; ++p) rd_kafka_topic_partition_list_add(list, topic.c_str(), p);
  int64_t total = -1;
  if (rd_kafka_committed(rk, list, 10000) == RD_KAFKA_RESP_ERR_NO_ERROR) {
    total = 0;
    for (int i = 0; i < list->cnt; ++i)
      if (list->elems[i].offset >= 0) total += list->elems[i].offset;
  }
  rd_kafka_topic_partition_list_destroy(list);
  rd_kafka_destroy(rk);
  return total;
}

bool KafkaMock::produce(const std::string& topic, const std::string& value,
                        const std::vector<std::pair<std::string, std::string>>& headers) {
  char err[256];
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  rd_kafka_conf_set(conf, "bootstrap.servers", bootstraps().c_str(), err, sizeof err);
  rd_kafka_t* rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, err, sizeof err);
  if (rk == nullptr) return false;
  rd_kafka_headers_t* h = rd_kafka_headers_new(headers.size());
  for (const auto& [k, v] : headers) rd_kafka_header_add(h, k.data(), -1, v.data(), static_cast<ssize_t>(v.size()));
  rd_kafka_resp_err_t e = rd_kafka_producev(rk, RD_KAFKA_V_TOPIC(topic.c_str()), RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY),
                                            RD_KAFKA_V_VALUE(const_cast<char*>(value.data()), value.size()),
                                            RD_KAFKA_V_HEADERS(h), RD_KAFKA_V_END);
  if (e != RD_KAFKA_RESP_ERR_NO_ERROR) rd_kafka_headers_destroy(h);
  const bool ok = e == RD_KAFKA_RESP_ERR_NO_ERROR && rd_kafka_flush(rk, 10000) == RD_KAFKA_RESP_ERR_NO_ERROR;
  rd_kafka_destroy(rk);
  return ok;
}

}  // namespace proflow::testing
