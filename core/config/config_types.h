// Value types that config fields use beyond plain scalars, with their YAML spellings.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace proflow::config {

// "250ms", "5s", "1m30s", "2h", "0" — Go's time.ParseDuration spelling, as the Collector uses.
struct Duration {
  std::chrono::nanoseconds value{0};

  Duration() = default;
  constexpr Duration(std::chrono::nanoseconds ns) : value(ns) {}  // NOLINT: implicit on purpose
  template <class R, class P>
  constexpr Duration(std::chrono::duration<R, P> d)  // NOLINT
      : value(std::chrono::duration_cast<std::chrono::nanoseconds>(d)) {}

  std::chrono::milliseconds ms() const { return std::chrono::duration_cast<std::chrono::milliseconds>(value); }
  double seconds() const { return std::chrono::duration<double>(value).count(); }
  bool zero() const { return value.count() == 0; }
  std::string str() const;
  auto operator<=>(const Duration&) const = default;
};

std::optional<Duration> parseDuration(std::string_view s);

// "64MiB", "512KiB", "1GB", "1048576" — binary (KiB/MiB/GiB) and decimal (KB/MB/GB) suffixes.
struct ByteSize {
  uint64_t bytes = 0;
  constexpr ByteSize() = default;
  constexpr ByteSize(uint64_t b) : bytes(b) {}  // NOLINT: implicit on purpose
  std::string str() const;
  auto operator<=>(const ByteSize&) const = default;
};

std::optional<ByteSize> parseByteSize(std::string_view s);

constexpr ByteSize operator""_MiB(unsigned long long v) { return ByteSize(v << 20); }
constexpr ByteSize operator""_KiB(unsigned long long v) { return ByteSize(v << 10); }

}  // namespace proflow::config
