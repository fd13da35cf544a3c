// The JFR request path as the oracle of the flat one (flat_converter_test.cc, synthetic_test.cc).
#pragma once

#include <gtest/gtest.h>
#include <google/protobuf/util/message_differencer.h>

#include <cstdint>
#include <span>
#include <string>

#include "core/flat/flat_convert.h"
#include "core/flat/flat_encode.h"
#include "core/formats/jfr/flat_converter.h"
#include "core/formats/jfr/otlp_converter.h"

namespace proflow::jfr {

inline std::string requestDifferences(const otlp::Request& want, const otlp::Request& got) {
  std::string diff;
  google::protobuf::util::MessageDifferencer d;
  d.ReportDifferencesToString(&diff);
  return d.Compare(want, got) ? std::string() : diff.substr(0, 4000);
}

// convertToFlat(jfr) read back as a request equals convertToOtlp(jfr); the results agree too.
inline void expectFlatEqualsRequest(std::span<const uint8_t> jfr, const ConvertOptions& options) {
  otlp::Request want;
  const ConvertResult w = convertToOtlp(jfr, options, &want);
  flat::Batch batch;
  const ConvertResult g = convertToFlat(jfr, options, &batch);
  EXPECT_EQ(g.ok, w.ok);
  EXPECT_EQ(g.chunks, w.chunks);
  EXPECT_EQ(g.events, w.events);
  EXPECT_EQ(g.samples, w.samples);
  otlp::Request got;
  ASSERT_TRUE(flat::toRequest(batch, &got).isOk());
  EXPECT_EQ(requestDifferences(want, got), "");
  EXPECT_EQ(flat::encode(batch), want.SerializeAsString());
}

}  // namespace proflow::jfr
