// The processor as a whole: config validation, override false/true, reference-based attributes, the
// pid cache, and one real check against this test process.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <mutex>

#include "core/config/config_loader.h"
#include "tests/support/dictionary_builder.h"
#include "tests/support/flat_request.h"
#include "processors/resource_detection/factory.h"
#include "processors/resource_detection/process_detector.h"
#include "processors/resource_detection/proc_files.h"
#include "processors/resource_detection/resource_detector.h"
#include "tests/processors/resource_detection/fake_proc.h"
#include "tests/support/component_config.h"
#include "tests/support/profile_builder.h"

namespace proflow::processors::resourcedetection {
namespace {

using ::testing::HasSubstr;

const std::string kId = "3f4a5b6c7d8e9f00112233445566778899aabbccddeeff00112233445566aabb";
const std::string kSelfId = "aaaa5b6c7d8e9f00112233445566778899aabbccddeeff00112233445566aabb";

// The detector on the flat form of `req`, written back into `req`.
ResourceDetector::ApplyResult applyTo(ResourceDetector& detector, otlp::Request& req) {
  flat::Batch batch;
  EXPECT_TRUE(flat::fromRequest(req, &batch).isOk());
  auto result = detector.apply(batch);
  EXPECT_TRUE(flat::toRequest(batch, &req).isOk());
  return result;
}

config::ConfigErrors validate(const std::string& yaml) {
  return ::proflow::testing::checkComponentConfig(*makeResourceDetectionProcessorFactory(), yaml, "processors.resourcedetection");
}

// Resource attributes as key -> value text, references resolved; arrays as "[n]" (their size).
std::map<std::string, std::string> attrs(const otlp::Request& r, int i) {
  std::map<std::string, std::string> out;
  const auto& d = r.dictionary();
  for (const auto& kv : r.resource_profiles(i).resource().attributes()) {
    std::string k = kv.key_strindex() ? std::string(dictString(d, kv.key_strindex())) : kv.key();
    const auto& v = kv.value();
    std::string val = v.has_string_value_strindex() ? "ref:" + std::string(dictString(d, v.string_value_strindex()))
                      : v.has_int_value()           ? "i:" + std::to_string(v.int_value())
                      : v.has_array_value()         ? "[" + std::to_string(v.array_value().values_size()) + "]"
                                                    : v.string_value();
    EXPECT_TRUE(out.emplace(k, val).second) << "duplicate key " << k;
  }
  return out;
}

void addInline(otlp::Request& r, int i, const std::string& key, const std::string& value) {
  auto* kv = r.mutable_resource_profiles(i)->mutable_resource()->add_attributes();
  kv->set_key(key);
  kv->mutable_value()->set_string_value(value);
}

void addPid(otlp::Request& r, int i, int64_t pid) {
  auto* kv = r.mutable_resource_profiles(i)->mutable_resource()->add_attributes();
  kv->set_key("process.pid");
  kv->mutable_value()->set_int_value(pid);
}

void addServer(testing::FakeProc& proc, const std::string& pid, const std::string& exe,
               const std::string& cgroup = "0::/system.slice/docker-" + kId + ".scope\n") {
  proc.add(pid, {.exe = exe, .comm = "server", .cmdline = exe + std::string(1, '\0'), .status = "Uid:\t0\t0\t0\t0\n",
                 .cgroup = cgroup});
}

TEST(ResourceDetectionConfig, Errors) {
  auto e = validate("detectors: [env, gcp, system]\n").format();
  EXPECT_THAT(e, HasSubstr("unknown detector 'gcp'; valid detectors: env, system, process, container, k8s"));
  EXPECT_THAT(e, HasSubstr("t.yaml:1:"));
  EXPECT_THAT(validate("detectors: [env, env]\n").format(), HasSubstr("'env' is listed twice"));
  EXPECT_THAT(validate("detectors: []\n").format(), HasSubstr("at least one"));
  EXPECT_THAT(validate("system: {hostname_sources: [dns]}\n").format(), HasSubstr("unsupported hostname source 'dns'"));
  EXPECT_THAT(validate("process: {cache_size: 0}\n").format(), HasSubstr("cache_size must be > 0"));
  EXPECT_THAT(validate("k8s: {pod_name_env: ['A=B']}\n").format(), HasSubstr("invalid variable name"));
  EXPECT_THAT(validate("timeout: 2s\n").format(), HasSubstr("unknown key 'timeout'"));
  EXPECT_TRUE(validate("detectors: [env, system, process, container, k8s]\noverride: true\n"
                       "container: {self: true}\nproc_path: /host/proc\n")
                  .empty());
  EXPECT_TRUE(validate("{}\n").empty());
}

TEST(ResourceDetector, OverrideFalseKeepsWhatTheSourceSet) {
  testing::TempDir dir;
  ResourceDetectionConfig cfg;
  cfg.detectors = {"system"};
  cfg.system.machine_id_files = {dir.write("machine-id", "feedface\n")};
  ResourceDetector detector(cfg);
  EXPECT_TRUE(detector.detectStatic().empty());
  auto req = testing::makeRequest("checkout", {testing::makeProfile(3)});
  addInline(req, 0, "host.name", "given-by-source");
  EXPECT_EQ(applyTo(detector, req).changed_resources, 1u);
  auto a = attrs(req, 0);
  EXPECT_EQ(a["host.name"], "given-by-source");
  EXPECT_EQ(a["host.id"], "feedface");
  EXPECT_EQ(a["os.type"], "linux");
  EXPECT_EQ(a["service.name"], "checkout");
  EXPECT_EQ(applyTo(detector, req).changed_resources, 0u);  // nothing left to add
}

TEST(ResourceDetector, OverrideTrueReplaces) {
  testing::TempDir dir;
  ResourceDetectionConfig cfg;
  cfg.detectors = {"system"};
  cfg.override = true;
  cfg.system.machine_id_files = {dir.write("machine-id", "feedface\n")};
  ResourceDetector detector(cfg);
  detector.detectStatic();
  auto req = testing::makeRequest("checkout", {testing::makeProfile(3)});
  addInline(req, 0, "host.id", "stale");
  EXPECT_EQ(applyTo(detector, req).changed_resources, 1u);
  auto a = attrs(req, 0);
  EXPECT_EQ(a["host.id"], "feedface");
  EXPECT_EQ(req.resource_profiles(0).resource().attributes_size(), 5);  // replaced in place, not added
  EXPECT_EQ(applyTo(detector, req).changed_resources, 0u);  // already equal: no change
}

// Two resources reference the same string-table entries; pid and keys come by reference too.
TEST(ResourceDetector, ReadsReferencesWritesInline) {
  testing::FakeProc proc;
  addServer(proc, "4242", "/opt/app/bin/server");
  setenv("OTEL_SERVICE_NAME", "from-env", 1);
  ResourceDetectionConfig cfg;
  cfg.detectors = {"env", "process", "container"};
  cfg.proc_path = proc.root();
  cfg.trust_pids = true;
  auto req = testing::makeRequest("ignored", {testing::makeProfile(3)});
  req.mutable_resource_profiles(0)->mutable_resource()->clear_attributes();
  *req.add_resource_profiles() = req.resource_profiles(0);
  DictionaryBuilder dict(req.mutable_dictionary());
  for (int i = 0; i < 2; ++i) {
    auto* res = req.mutable_resource_profiles(i)->mutable_resource();
    auto* kv = res->add_attributes();
    kv->set_key_strindex(dict.string("service.name"));
    kv->mutable_value()->set_string_value_strindex(dict.string("checkout"));
    kv = res->add_attributes();
    kv->set_key_strindex(dict.string("process.pid"));
    kv->mutable_value()->set_string_value_strindex(dict.string("4242"));
  }
  const int table_size = req.dictionary().string_table_size();
  const int checkout = dict.string("checkout");  // `dict` edits the table that applyTo replaces below
  ResourceDetector detector(cfg);
  detector.detectStatic();
  unsetenv("OTEL_SERVICE_NAME");
  auto result = applyTo(detector, req);
  EXPECT_EQ(result.changed_resources, 2u);
  EXPECT_EQ(result.pid_detections, 1u);
  for (int i = 0; i < 2; ++i) {
    auto a = attrs(req, i);
    EXPECT_EQ(a["service.name"], "ref:checkout");  // recognised through key_strindex and kept
    EXPECT_EQ(a["process.executable.path"], "/opt/app/bin/server");
    EXPECT_EQ(a["process.owner"], "root");
    EXPECT_EQ(a["container.id"], kId);
  }
  EXPECT_EQ(req.dictionary().string_table_size(), table_size);  // the shared table is not edited
  EXPECT_EQ(detector.cache().misses(), 1u);  // two resources, one pid: detected once
  EXPECT_EQ(detector.cache().hits(), 1u);

  cfg.override = true;
  ResourceDetector overriding(cfg);
  setenv("OTEL_SERVICE_NAME", "from-env", 1);
  overriding.detectStatic();
  unsetenv("OTEL_SERVICE_NAME");
  EXPECT_EQ(applyTo(overriding, req).changed_resources, 2u);
  const auto& kv = req.resource_profiles(1).resource().attributes(0);
  EXPECT_EQ(kv.key(), "service.name");  // written inline
  EXPECT_EQ(kv.key_strindex(), 0);
  EXPECT_EQ(kv.value().string_value(), "from-env");
  EXPECT_EQ(req.dictionary().string_table(checkout), "checkout");
  EXPECT_TRUE(testing::dictionaryProblems(req).empty());
}

TEST(ResourceDetector, FirstDetectorListedWins) {
  setenv("OTEL_RESOURCE_ATTRIBUTES", "host.name=from-env,os.type=plan9", 1);
  ResourceDetectionConfig cfg;
  cfg.detectors = {"env", "system"};
  ResourceDetector env_first(cfg);
  env_first.detectStatic();
  cfg.detectors = {"system", "env"};
  ResourceDetector system_first(cfg);
  system_first.detectStatic();
  unsetenv("OTEL_RESOURCE_ATTRIBUTES");
  auto now = PidCache::Clock::now();
  auto find = [](const DetectedList& l, const std::string& k) {
    for (const auto& d : l)
      if (d.key == k) return d.value.string_value();
    return std::string("<none>");
  };
  EXPECT_EQ(find(env_first.attributesFor(std::nullopt, now), "host.name"), "from-env");
  EXPECT_EQ(find(env_first.attributesFor(std::nullopt, now), "os.type"), "plan9");
  EXPECT_NE(find(system_first.attributesFor(std::nullopt, now), "host.name"), "from-env");
  EXPECT_EQ(find(system_first.attributesFor(std::nullopt, now), "os.type"), "linux");
}

TEST(ResourceDetector, OwnContainerOnlyForResourcesWithoutPidAndOnlyWhenAsked) {
  testing::FakeProc proc;
  addServer(proc, "4242", "/opt/app/bin/server");
  addServer(proc, "4343", "/usr/sbin/sshd", "0::/system.slice/ssh.service\n");  // a host process
  proc.add("self", {.cgroup = "0::/kubepods.slice/cri-containerd-" + kSelfId + ".scope\n"});
  ResourceDetectionConfig cfg;
  cfg.detectors = {"container"};
  cfg.proc_path = proc.root();
  cfg.trust_pids = true;
  auto make = [] {
    auto req = testing::makeRequest("a", {testing::makeProfile(1)});
    *req.add_resource_profiles() = req.resource_profiles(0);
    *req.add_resource_profiles() = req.resource_profiles(0);
    addPid(req, 0, 4242);
    addPid(req, 1, 4343);
    return req;
  };
  {
    ResourceDetector detector(cfg);
    detector.detectStatic();
    auto req = make();
    EXPECT_EQ(applyTo(detector, req).changed_resources, 1u);
    EXPECT_EQ(attrs(req, 0)["container.id"], kId);
    EXPECT_EQ(attrs(req, 1).count("container.id"), 0u);
    EXPECT_EQ(attrs(req, 2).count("container.id"), 0u);  // default: no self
  }
  cfg.container.self = true;
  ResourceDetector detector(cfg);
  detector.detectStatic();
  auto req = make();
  EXPECT_EQ(applyTo(detector, req).changed_resources, 2u);
  EXPECT_EQ(attrs(req, 0)["container.id"], kId);
  EXPECT_EQ(attrs(req, 1).count("container.id"), 0u);  // the host process does not get ours
  EXPECT_EQ(attrs(req, 2)["container.id"], kSelfId);
}

TEST(ResourceDetector, PidCacheExpiresAndIsBounded) {
  testing::FakeProc proc;
  addServer(proc, "100", "/bin/first");
  ResourceDetectionConfig cfg;
  cfg.detectors = {"process"};
  cfg.proc_path = proc.root();
  cfg.trust_pids = true;
  cfg.process.cache_size = 2;
  cfg.process.cache_ttl = std::chrono::seconds(60);
  ResourceDetector detector(cfg);
  auto t0 = PidCache::Clock::now();
  auto path = [&](int64_t pid, PidCache::Clock::time_point at) {
    for (const auto& d : detector.attributesFor(pid, at))
      if (d.key == "process.executable.path") return d.value.string_value();
    return std::string("<none>");
  };
  EXPECT_EQ(path(100, t0), "/bin/first");
  addServer(proc, "100", "/bin/second");  // the pid was reused
  EXPECT_EQ(path(100, t0 + std::chrono::seconds(59)), "/bin/first");  // still trusted
  EXPECT_EQ(path(100, t0 + std::chrono::seconds(61)), "/bin/second");
  EXPECT_EQ(path(101, t0), "<none>");
  EXPECT_EQ(path(102, t0), "<none>");
  EXPECT_EQ(detector.cache().size(), 2u);
  EXPECT_EQ(detector.cache().misses(), 4u);
}

// The real /proc: this test process describes itself.
TEST(ResourceDetector, RealProcSelf) {
  ResourceDetectionConfig cfg;
  cfg.detectors = {"process", "container"};
  cfg.trust_pids = true;
  cfg.process.command_line = cfg.process.command_args = true;
  ResourceDetector detector(cfg);
  detector.detectStatic();
  auto req = testing::makeRequest("me", {testing::makeProfile(1)});
  addPid(req, 0, getpid());
  EXPECT_EQ(applyTo(detector, req).changed_resources, 1u);
  auto a = attrs(req, 0);
  auto exe = readLink("/proc/self/exe");
  ASSERT_TRUE(exe);
  EXPECT_EQ(a["process.executable.path"], *exe);
  EXPECT_EQ(a["process.executable.name"], std::string(exe->substr(exe->rfind('/') + 1)).substr(0, 15));
  EXPECT_EQ(a["process.owner"], userName(getuid()));
  EXPECT_EQ(a["process.parent_pid"], "i:" + std::to_string(getppid()));
  EXPECT_EQ(a["process.command_args"].front(), '[');
  EXPECT_THAT(a["process.command_line"], HasSubstr(exe->substr(exe->rfind('/') + 1)));
}

struct Sink : ProfilesConsumer {
  Status consume(Batch b) override {
    std::lock_guard lock(mu);
    got.push_back(std::move(b));
    return Status::ok();
  }
  std::mutex mu;
  std::vector<Batch> got;
};

TEST(ResourceDetectionProcessor, ThroughTheFactory) {
  setenv("OTEL_RESOURCE_ATTRIBUTES", "deployment.environment=prod", 1);
  auto factory = makeResourceDetectionProcessorFactory();
  EXPECT_EQ(factory->type(), "resource_detection");
  auto cfg = factory->createDefaultConfig();  // detectors: [env]
  auto sink = std::make_shared<Sink>();
  CreateSettings settings{.id = {"resourcedetection", ""}, .kind = ComponentKind::kProcessor};
  auto p = static_cast<ProcessorFactory&>(*factory).create(settings, *cfg, sink);
  EXPECT_TRUE(p->capabilities().mutates_data);
  struct NoHost : Host {
    void reportFatalError(const ComponentId&, const Status&) override {}
  } host;
  ASSERT_TRUE(p->start(host).isOk());
  unsetenv("OTEL_RESOURCE_ATTRIBUTES");
  ASSERT_TRUE(p->consume(::proflow::testing::batchOf(testing::makeRequest("checkout", {testing::makeProfile(4)}))).isOk());
  ASSERT_EQ(sink->got.size(), 1u);
  auto a = attrs(::proflow::testing::requestOf(sink->got[0]), 0);
  EXPECT_EQ(a["deployment.environment"], "prod");
  EXPECT_EQ(a["service.name"], "checkout");
  EXPECT_EQ(sink->got[0].counts().samples, 4u);
  p->shutdown(Deadline::clock::now());
}

}  // namespace
}  // namespace proflow::processors::resourcedetection
