#include "tests/e2e/pprof_pipeline.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <mutex>

#include "tests/support/dictionary_builder.h"
#include "core/formats/pprof/pprof_codec.h"
#include "tests/receivers/pprof/go_app.h"
#include "tests/support/otlp_files.h"
#include "tests/support/profile_builder.h"

namespace proflow::testing {

std::string goProfilesDir(std::string* error) {
  // Written once per test process: building and running the Go program takes seconds.
  static std::once_flag once;
  static TempDir* dir = nullptr;
  static std::string failure;
  std::call_once(once, [] {
    std::string out;
    const std::string bin = pprofAppBinary(&failure);
    if (bin.empty()) return;
    auto* d = new TempDir();  // lives until the process exits, like the profiles in it
    if (runCommand({bin, "-write", d->path().string()}, &out) != 0) {
      failure = "pprofapp -write failed: " + out;
      delete d;
      return;
    }
    dir = d;
  });
  if (dir == nullptr) *error = failure;
  return dir ? dir->path().string() : "";
}

PprofPipeline::PprofPipeline(const TempDir& dir, const std::string& name, const std::string& processors_yaml,
                             const std::string& chain, const Daemon::Env& env)
    : dir_(dir), name_(name), out_(dir.file(name + ".bin")), port_(freePort()), metrics_port_(freePort()) {
  const std::string yaml =
      "receivers:\n  pprof: { endpoint: 127.0.0.1:" + std::to_string(port_) + " }\n" +
      "processors:\n" + processors_yaml +
      "exporters:\n  file: { path: " + out_ + ", format: otlp_proto, flush_interval: 0 }\n" +
      "service:\n  telemetry: { metrics: { address: 127.0.0.1:" + std::to_string(metrics_port_) + " } }\n" +
      "  pipelines: { profiles: { receivers: [pprof], processors: " + chain + ", exporters: [file] } }\n";
  daemon_ = std::make_unique<Daemon>(std::vector<std::string>{"--config", dir.write(name + ".yaml", yaml)},
                                     dir.file(name + ".log"), env);
}

int PprofPipeline::post(const std::string& file, const std::string& query) {
  std::string out;
  const std::vector<std::string> argv = {"curl", "-sS", "-o", dir_.file(name_ + ".resp"), "-w", "%{http_code}",
                                         "--data-binary", "@" + file,
                                         "http://127.0.0.1:" + std::to_string(port_) + "/v1/pprof" + query};
  if (runCommand(argv, &out) != 0) {
    ADD_FAILURE() << "curl failed (is curl installed?): " << out;
    return 0;
  }
  return std::atoi(out.c_str());
}

std::vector<otlp::Request> PprofPipeline::stop() {
  EXPECT_EQ(daemon_->terminate(), 0) << daemon_->log();
  return readOtlpProtoFile(out_);
}

int64_t SeenProfile::total() const {
  int64_t sum = 0;
  for (int64_t v : values) sum += v;
  return sum;
}

namespace {

// A value as text (strings as they are, numbers in decimal), whatever its encoding.
std::string valueText(const otlp::AnyValue& v, const otlp::Dictionary& dict) {
  switch (v.value_case()) {
    case otlp::AnyValue::kStringValue: return v.string_value();
    case otlp::AnyValue::kStringValueStrindex: return std::string(dictString(dict, v.string_value_strindex()));
    case otlp::AnyValue::kIntValue: return std::to_string(v.int_value());
    case otlp::AnyValue::kBoolValue: return v.bool_value() ? "true" : "false";
    case otlp::AnyValue::kDoubleValue: return std::to_string(v.double_value());
    default: return v.ShortDebugString();
  }
}

std::map<std::string, std::string> keyValues(const google::protobuf::RepeatedPtrField<otlp::KeyValue>& kvs,
                                             const otlp::Dictionary& dict) {
  std::map<std::string, std::string> out;
  for (const auto& kv : kvs) {
    std::string key = kv.key_strindex() != 0 ? std::string(dictString(dict, kv.key_strindex())) : kv.key();
    out[key] = valueText(kv.value(), dict);
  }
  return out;
}

std::map<std::string, std::string> indexedAttributes(const google::protobuf::RepeatedField<int32_t>& indices,
                                                     const otlp::Dictionary& dict) {
  std::map<std::string, std::string> out;
  for (int32_t i : indices) {
    const auto& kv = dict.attribute_table(i);
    out[std::string(dictString(dict, kv.key_strindex()))] = valueText(kv.value(), dict);
  }
  return out;
}

}  // namespace

std::vector<SeenProfile> seenProfiles(const std::vector<otlp::Request>& requests) {
  std::vector<SeenProfile> out;
  for (const auto& r : requests) {
    const auto& d = r.dictionary();
    for (const auto& rp : r.resource_profiles())
      for (const auto& sp : rp.scope_profiles())
        for (const auto& p : sp.profiles()) {
          SeenProfile s;
          s.type = std::string(dictString(d, p.sample_type().type_strindex()));
          s.resource = keyValues(rp.resource().attributes(), d);
          s.attributes = indexedAttributes(p.attribute_indices(), d);
          s.time_unix_nano = p.time_unix_nano();
          for (const auto& sample : p.samples()) {
            int64_t v = 0;
            for (int64_t x : sample.values()) v += x;
            s.values.push_back(v);
            s.stacks.push_back(stackFrames(d, sample.stack_index()));
            s.sample_attributes.push_back(indexedAttributes(sample.attribute_indices(), d));
          }
          out.push_back(std::move(s));
        }
  }
  return out;
}

PprofTotals pprofTotals(const std::string& file) {
  ::proflow::pprof::Profile p;
  Status st = ::proflow::pprof::decodeProfile(readFile(file), &p);
  EXPECT_TRUE(st.isOk()) << file << ": " << st.toString();
  PprofTotals t;
  t.time_nanos = p.time_nanos();
  std::map<uint64_t, std::string> function_names;
  for (const auto& f : p.function()) function_names[f.id()] = p.string_table(f.name());
  std::map<uint64_t, std::vector<std::string>> location_frames;  // innermost line first
  for (const auto& l : p.location())
    for (const auto& line : l.line()) location_frames[l.id()].push_back(function_names[line.function_id()]);
  for (const auto& s : p.sample()) {
    for (int i = 0; i < p.sample_type_size(); ++i) {
      auto& [count, sum] = t.by_type[p.string_table(p.sample_type(i).type())];
      ++count;
      sum += s.value(i);
    }
    std::vector<std::string> frames;
    for (uint64_t id : s.location_id())
      for (const auto& f : location_frames[id]) frames.push_back(f);
    t.stacks.push_back(std::move(frames));
  }
  return t;
}

}  // namespace proflow::testing
