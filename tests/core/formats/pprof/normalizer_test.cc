// The round-trip comparison is only as good as the normalizer: it must ignore ids and ordering and
// nothing else.
#include <gtest/gtest.h>

#include "tests/core/formats/pprof/raw_normalizer.h"

namespace proflow::testing {
namespace {

const char* kRaw = R"(PeriodType: space bytes
Period: 4096
Samples:
alloc_objects/count alloc_space/bytes
          2       4096: 1 2 
                bytes:[2048]
          1         16: 3 2 
Locations
     1: 0x1000 M=1 main.leaf a.go:10 s=1
     2: 0x2000 M=1 main.caller a.go:20 s=2
     3: 0x3000 M=2 lib.fn b.c:5 s=0
             lib.inlined b.c:7 s=0
Mappings
1: 0x0/0x10000/0x0 /bin/app abc [FN]
2: 0x7f00/0x8000/0x0 /lib/x.so  
)";

// Same profile with ids renumbered and samples, locations and mappings reordered.
const char* kRenumbered = R"(PeriodType: space bytes
Period: 4096
Samples:
alloc_objects/count alloc_space/bytes
          1         16: 7 5 
          2       4096: 9 5 
                bytes:[2048]
Locations
     5: 0x2000 M=3 main.caller a.go:20 s=2
     7: 0x3000 M=4 lib.fn b.c:5 s=0
             lib.inlined b.c:7 s=0
     9: 0x1000 M=3 main.leaf a.go:10 s=1
Mappings
4: 0x7f00/0x8000/0x0 /lib/x.so  
3: 0x0/0x10000/0x0 /bin/app abc [FN]
)";

std::string replace(std::string s, const std::string& from, const std::string& to) {
  size_t at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return s.replace(at, from.size(), to);
}

TEST(RawNormalizer, IgnoresIdsAndOrder) {
  std::string a = normalizePprofRaw(kRaw);
  EXPECT_EQ(a.rfind("PARSE ERROR", 0), std::string::npos) << a;
  EXPECT_EQ(a, normalizePprofRaw(kRenumbered));
}

TEST(RawNormalizer, DetectsRealDifferences) {
  const std::string base = normalizePprofRaw(kRaw);
  // A value, a label, the order of frames in a stack, a line number, a mapping's build id, an
  // inlined frame, and the period must each change the canonical form.
  EXPECT_NE(base, normalizePprofRaw(replace(kRaw, "4096: 1 2", "4097: 1 2")));
  EXPECT_NE(base, normalizePprofRaw(replace(kRaw, "bytes:[2048]", "bytes:[2049]")));
  EXPECT_NE(base, normalizePprofRaw(replace(kRaw, "4096: 1 2", "4096: 2 1")));
  EXPECT_NE(base, normalizePprofRaw(replace(kRaw, "a.go:10", "a.go:11")));
  EXPECT_NE(base, normalizePprofRaw(replace(kRaw, "/bin/app abc", "/bin/app abd")));
  EXPECT_NE(base, normalizePprofRaw(replace(kRaw, "             lib.inlined b.c:7 s=0\n", "")));
  EXPECT_NE(base, normalizePprofRaw(replace(kRaw, "Period: 4096", "Period: 4095")));
  // A location moved to another mapping with a different file.
  EXPECT_NE(base, normalizePprofRaw(replace(kRaw, "0x1000 M=1", "0x1000 M=2")));
  // A duplicated sample is a difference too (samples are a multiset).
  EXPECT_NE(base, normalizePprofRaw(replace(kRaw, "          1         16: 3 2 \n",
                                            "          1         16: 3 2 \n          1         16: 3 2 \n")));
}

TEST(RawNormalizer, RejectsGarbage) {
  EXPECT_EQ(normalizePprofRaw("hello").rfind("PARSE ERROR", 0), 0u);
  EXPECT_EQ(normalizePprofRaw(replace(kRaw, "4096: 1 2", "4096: 1 42")).rfind("PARSE ERROR", 0), 0u);
}

}  // namespace
}  // namespace proflow::testing
