// librdkafka's mock cluster (rdkafka_mock.h) in the test process: brokers on loopback ports that
// real clients, in this process or in a daemon, reach through bootstraps().
#pragma once

#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>

#include <string>
#include <vector>

namespace proflow::testing {

class KafkaMock {
 public:
  explicit KafkaMock(int brokers = 3);
  ~KafkaMock();
  KafkaMock(const KafkaMock&) = delete;
  KafkaMock& operator=(const KafkaMock&) = delete;

  bool ok() const { return cluster_ != nullptr; }
  rd_kafka_mock_cluster_t* cluster() { return cluster_; }
  std::string bootstraps() const;
  // "[host:port, ...]" for a YAML brokers list.
  std::string brokersYaml() const;
  bool createTopic(const std::string& topic, int partitions);

  // Every record of `topic` (all partitions) read with a plain consumer from the beginning, until
  // `expected` arrived or `timeout_ms` passed.
  struct Record {
    std::string key, value;
    std::vector<std::pair<std::string, std::string>> headers;
    int32_t partition = 0;
  };
  std::vector<Record> readAll(const std::string& topic, size_t expected, int timeout_ms = 10000);
  // Sum over partitions 0..partitions-1 of `topic` of the next offset `group` committed (0 where it
  // committed none), or -1 when the coordinator did not answer. Asks without joining the group.
  int64_t committedTotal(const std::string& group, const std::string& topic, int partitions);
  // Produces one record with a plain producer and waits for its delivery.
  bool produce(const std::string& topic, const std::string& value,
               const std::vector<std::pair<std::string, std::string>>& headers = {});

 private:
  rd_kafka_t* handle_ = nullptr;  // owns the cluster's bookkeeping
  rd_kafka_mock_cluster_t* cluster_ = nullptr;
};

}  // namespace proflow::testing
