// Collects every configuration problem so start-up can report them all at once.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "core/config/config_node.h"

namespace proflow::config {

struct ConfigError {
  std::string path;  // YAML path, e.g. "exporters.otlp/backend.retry_on_failure.max_interval"
  SourceLocation location;
  std::string message;
};

// A config value as an error message quotes it: whole when short, else its first `max` bytes and its
// size ('aaaa...' (52428800 bytes)), so a huge scalar is never echoed whole into logs.
std::string quoteValue(std::string_view value, bool quotes = true, size_t max = 64);

class ConfigErrors {
 public:
  // Longer messages are cut (a backstop: messages quote values through quoteValue()).
  static constexpr size_t kMaxMessageBytes = 2048;

  void add(std::string path, SourceLocation location, std::string message);
  bool empty() const { return errors_.empty(); }
  size_t size() const { return errors_.size(); }
  const std::vector<ConfigError>& all() const { return errors_; }
  // One line per error: "file:line:col: path: message".
  std::string format() const;

 private:
  std::vector<ConfigError> errors_;
};

}  // namespace proflow::config
