// One Sample appended to a batch's sample columns, as the decoders (OTLP wire and OTLP/JSON) add them.
#pragma once

#include "core/flat/flat_batch.h"

namespace proflow::flat {

inline void appendSampleRow(SampleColumns& s, int32_t stack, int32_t link, Range attributes, Range values,
                            Range timestamps) {
  s.stack_index.push_back(stack);
  s.link_index.push_back(link);
  s.attributes.push_back(attributes);
  s.values.push_back(values);
  s.timestamps.push_back(timestamps);
}

}  // namespace proflow::flat
