// `proflow convert` on real inputs: JDK recordings, its own pprof output, and a g++-built binary.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "tests/support/otlp_json_protobuf.h"
#include "core/formats/pprof/pprof_codec.h"
#include "core/model/otlp_types.h"
#include "tests/support/daemon.h"
#include "tests/support/temp_dir.h"

namespace proflow {
namespace {

using testing::runCommand;

std::string jfrRecording(const std::string& name) {
  const std::string src = std::string(PROFLOW_SOURCE_DIR) + "/tests/core/formats/jfr/testdata";
  const std::string out = std::string(PROFLOW_BINARY_DIR) + "/tests/core/formats/jfr/recordings";
  std::string log;
  EXPECT_EQ(runCommand({"sh", src + "/make_recordings.sh", src, out}, &log), 0) << log;
  return out + "/" + name;
}

TEST(Convert, JfrToPprofToOtlpAndFolded) {
  testing::TempDir dir;
  const std::string jfr = jfrRecording("profile.jfr");
  std::string out;
  ASSERT_EQ(runCommand({testing::proflowBinary(), "convert", jfr, dir.file("p.pb.gz"), "--to", "pprof"}, &out), 0) << out;
  pprof::Profile profile;
  ASSERT_TRUE(pprof::decodeProfile(testing::readFile(dir.file("p.pb.gz")), &profile).isOk());
  EXPECT_GT(profile.sample_size(), 0);

  // Detected as pprof on the way back in.
  ASSERT_EQ(runCommand({testing::proflowBinary(), "convert", dir.file("p.pb.gz"), dir.file("p.json"), "--to", "otlp_json"},
                       &out),
            0)
      << out;
  otlp::Request request;
  ASSERT_TRUE(otlp_json_pb::parseOtlpJson(testing::readFile(dir.file("p.json")), &request).isOk());
  EXPECT_GT(request.resource_profiles_size(), 0);

  ASSERT_EQ(runCommand({testing::proflowBinary(), "convert", jfr, dir.file("cpu.folded"), "--to", "folded",
                        "--sample-type", "cpu"},
                       &out),
            0)
      << out;
  const std::string folded = testing::readFile(dir.file("cpu.folded"));
  EXPECT_NE(folded.find("Workload"), std::string::npos) << folded.substr(0, 500);

  // Folded text is detected as input too, and survives a round trip line for line.
  ASSERT_EQ(runCommand({testing::proflowBinary(), "convert", dir.file("cpu.folded"), dir.file("back.folded"), "--to",
                        "folded"},
                       &out),
            0)
      << out;
  auto sortedLines = [](const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);)
      if (!l.empty()) lines.push_back(l);
    std::sort(lines.begin(), lines.end());
    return lines;
  };
  EXPECT_EQ(sortedLines(testing::readFile(dir.file("back.folded"))), sortedLines(folded));
}

// A large file (mapped) and the same bytes through a pipe (read in chunks) convert alike.
TEST(Convert, ALargeFileAndAPipeGiveTheSameOutput) {
  testing::TempDir dir;
  const std::string chunk = testing::readFile(jfrRecording("profile.jfr"));
  ASSERT_FALSE(chunk.empty());
  std::string big;
  while (big.size() < (5u << 20)) big += chunk;  // JFR chunks concatenate into one recording
  const std::string in = dir.write("big.jfr", big);
  std::string out;
  ASSERT_EQ(runCommand({testing::proflowBinary(), "convert", in, dir.file("file.pb.gz")}, &out), 0) << out;
  ASSERT_EQ(runCommand({"sh", "-c", "cat \"$1\" | \"$0\" convert /dev/stdin \"$2\"", testing::proflowBinary(), in,
                        dir.file("pipe.pb.gz")},
                       &out),
            0)
      << out;
  const std::string from_file = testing::readFile(dir.file("file.pb.gz"));
  EXPECT_FALSE(from_file.empty());
  EXPECT_EQ(testing::readFile(dir.file("pipe.pb.gz")), from_file);
  pprof::Profile profile;
  ASSERT_TRUE(pprof::decodeProfile(from_file, &profile).isOk());
  EXPECT_GT(profile.sample_size(), 0);
}

TEST(Convert, RejectsGarbageWithAMessage) {
  testing::TempDir dir;
  std::string out;
  EXPECT_EQ(runCommand({testing::proflowBinary(), "convert", dir.write("x", "not a profile"), dir.file("y")}, &out), 1);
  EXPECT_NE(out.find("proflow convert:"), std::string::npos) << out;
}

TEST(Convert, SymbolizesAddressesOfALocalBinary) {
  testing::TempDir dir;
  const std::string src = dir.write("prog.c", "__attribute__((noinline)) int hot_loop(int n) { int s = 0;\n"
                                               "  for (int i = 0; i < n; ++i) s += i * i; return s; }\n"
                                               "int main(int c, char** v) { (void)v; return hot_loop(c); }\n");
  const std::string bin = dir.file("prog");
  std::string out;
  ASSERT_EQ(runCommand({"gcc", "-g", "-O1", "-no-pie", "-Wl,--build-id", "-o", bin, src}, &out), 0) << out;
  ASSERT_EQ(runCommand({"sh", "-c", "nm " + bin + " | awk '$3 == \"hot_loop\" {print $1}'"}, &out), 0);
  const uint64_t addr = std::stoull(out, nullptr, 16) + 4;  // inside the function

  // An unsymbolized profile as a native agent sends it: a mapping naming the binary, an address.
  otlp::Request r;
  auto* d = r.mutable_dictionary();
  for (const char* s : {"", "cpu", "nanoseconds"}) d->add_string_table(s);
  d->add_string_table(bin);
  d->add_mapping_table();
  auto* m = d->add_mapping_table();
  m->set_memory_start(0x400000);
  m->set_memory_limit(0x500000);
  m->set_filename_strindex(3);
  d->add_location_table();
  auto* loc = d->add_location_table();
  loc->set_mapping_index(1);
  loc->set_address(addr);
  d->add_stack_table();
  d->add_stack_table()->add_location_indices(1);
  d->add_function_table();
  d->add_attribute_table();
  d->add_link_table();
  auto* p = r.add_resource_profiles()->add_scope_profiles()->add_profiles();
  p->mutable_sample_type()->set_type_strindex(1);
  p->mutable_sample_type()->set_unit_strindex(2);
  auto* s = p->add_samples();
  s->set_stack_index(1);
  s->add_values(1);
  const std::string in = dir.write("in.pb", r.SerializeAsString());

  ASSERT_EQ(runCommand({testing::proflowBinary(), "convert", "--from", "otlp_proto", in, dir.file("out.json"), "--to",
                        "otlp_json", "--symbolize"},
                       &out),
            0)
      << out;
  EXPECT_NE(out.find("symbolized 1 locations"), std::string::npos) << out;
  otlp::Request back;
  ASSERT_TRUE(otlp_json_pb::parseOtlpJson(testing::readFile(dir.file("out.json")), &back).isOk());
  const auto& l = back.dictionary().location_table(1);
  ASSERT_GE(l.lines_size(), 1);
  const auto& f = back.dictionary().function_table(l.lines(l.lines_size() - 1).function_index());
  EXPECT_EQ(back.dictionary().string_table(f.name_strindex()), "hot_loop");
  EXPECT_NE(back.dictionary().string_table(f.filename_strindex()).find("prog.c"), std::string::npos);
}

}  // namespace
}  // namespace proflow
