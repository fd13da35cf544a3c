// Collects every configuration problem so start-up can report them all at once.
#pragma once

#include <string>
#include <vector>

#include "core/config/config_node.h"

namespace proflow::config {

struct ConfigError {
  std::string path;  // YAML path, e.g. "exporters.otlp/backend.retry_on_failure.max_interval"
  SourceLocation location;
  std::string message;
};

class ConfigErrors {
 public:
  void add(std::string path, SourceLocation location, std::string message) {
    errors_.push_back({std::move(path), std::move(location), std::move(message)});
  }
  bool empty() const { return errors_.empty(); }
  size_t size() const { return errors_.size(); }
  const std::vector<ConfigError>& all() const { return errors_; }
  // One line per error: "file:line:col: path: message".
  std::string format() const;

 private:
  std::vector<ConfigError> errors_;
};

}  // namespace proflow::config
