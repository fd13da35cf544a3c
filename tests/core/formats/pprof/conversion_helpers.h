// Helpers for the pprof <-> OTLP conversion tests.
#pragma once

#include <string>
#include <string_view>

#include "core/formats/pprof/pprof_codec.h"
#include "core/model/otlp_types.h"

namespace proflow::pprof::testdata {

void addLabel(Profile* p, perftools::profiles::Sample* s, std::string_view key, std::string_view str);
void addNum(Profile* p, perftools::profiles::Sample* s, std::string_view key, int64_t v, std::string_view unit);

// Every pprof feature at once: multi-value samples, default type, comments, drop/keep frames, doc_url,
// GNU and Go build ids, has_* flags, an unreferenced mapping, a folded location with inlined lines and
// columns, string/numeric labels with and without units, span/trace labels, a timestamp label.
Profile richProfile();

// Canonical text of a pprof with ids resolved, in sample order; covers every field.
std::string describe(const Profile& p);

std::string attrKey(const otlp::Dictionary& d, int32_t i);
const otlp::KeyValueAndUnit* findAttr(const otlp::Dictionary& d, const google::protobuf::RepeatedField<int32_t>& idx,
                                      std::string_view key);

}  // namespace proflow::pprof::testdata
