// Short names for the generated OTLP profiles types: every component speaks these.
#pragma once

#include "opentelemetry/proto/collector/profiles/v1development/profiles_service.pb.h"
#include "opentelemetry/proto/common/v1/common.pb.h"
#include "opentelemetry/proto/profiles/v1development/profiles.pb.h"
#include "opentelemetry/proto/resource/v1/resource.pb.h"

namespace proflow::otlp {

namespace pb = ::opentelemetry::proto::profiles::v1development;
namespace common = ::opentelemetry::proto::common::v1;
namespace collector = ::opentelemetry::proto::collector::profiles::v1development;

using Request = collector::ExportProfilesServiceRequest;
using Response = collector::ExportProfilesServiceResponse;
using Dictionary = pb::ProfilesDictionary;
using ResourceProfiles = pb::ResourceProfiles;
using ScopeProfiles = pb::ScopeProfiles;
using Profile = pb::Profile;
using Sample = pb::Sample;
using Stack = pb::Stack;
using Location = pb::Location;
using Line = pb::Line;
using Function = pb::Function;
using Mapping = pb::Mapping;
using Link = pb::Link;
using ValueType = pb::ValueType;
using KeyValueAndUnit = pb::KeyValueAndUnit;
using AnyValue = common::AnyValue;
using KeyValue = common::KeyValue;

}  // namespace proflow::otlp
