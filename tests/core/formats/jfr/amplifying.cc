#include "tests/core/formats/jfr/amplifying.h"

#include "tests/core/formats/jfr/jfr_writer.h"

namespace proflow::testing {
namespace {

std::string enc(const JfrBytes& b) { return b.str(); }

// Symbols, one class, one method, one thread: what every shape below refers to.
void addCommonPools(ChunkBuilder& b) {
  b.addStandardClasses();
  b.checkpoint({
      {ids::kSymbol, {{1, enc(JfrBytes().utf8("app/Main"))}, {2, enc(JfrBytes().utf8("work"))},
                      {4, enc(JfrBytes().utf8("()V"))}}},
      {ids::kFrameType, {{0, enc(JfrBytes().utf8("JIT compiled"))}}},
      {ids::kThreadState, {{0, enc(JfrBytes().utf8("STATE_RUNNABLE"))}}},
      {ids::kClass, {{1, enc(JfrBytes().varint(0).varint(1).varint(0).varint(1))}}},
      {ids::kMethod, {{1, enc(JfrBytes().varint(1).varint(2).varint(4).varint(1).u8(0))}}},
      {ids::kThread, {{1, enc(JfrBytes().utf8("main").varint(11).utf8("main").varint(1))}}},
  });
}

JfrBytes sample(uint64_t tick, uint64_t stack, uint64_t span) {
  JfrBytes e;
  e.varint(tick).varint(1).varint(stack).varint(0).varint(0).varint(span).utf8("").varint(span ? 7 : 0).varint(span);
  return e;
}

}  // namespace

std::string jfrDistinctDeepStacks(int stacks, int depth) {
  ChunkBuilder b(1);
  addCommonPools(b);
  PoolSpec pool{ids::kStackTrace, {}};
  for (int s = 0; s < stacks; ++s) {
    JfrBytes t;
    t.u8(0).varint(static_cast<uint64_t>(depth));
    for (int f = 0; f < depth; ++f)
      t.varint(1).varint(static_cast<uint64_t>(s) * static_cast<uint64_t>(depth) + static_cast<uint64_t>(f) + 1)
          .varint(0).varint(0);
    pool.entries.emplace_back(static_cast<uint64_t>(s) + 1, t.str());
  }
  b.checkpoint({pool});
  for (int s = 0; s < stacks; ++s) b.event(ids::kExecutionSample, sample(1500 + s, static_cast<uint64_t>(s) + 1, 0));
  return b.build();
}

std::string jfrDistinctSpans(int events) {
  ChunkBuilder b(1);
  addCommonPools(b);
  JfrBytes t;
  t.u8(0).varint(1).varint(1).varint(10).varint(0).varint(0);
  b.checkpoint({{ids::kStackTrace, {{1, t.str()}}}});
  for (int i = 0; i < events; ++i) b.event(ids::kExecutionSample, sample(1500 + i, 1, static_cast<uint64_t>(i) + 1));
  return b.build();
}

std::string foldedDistinctFrames(int lines, int depth) {
  std::string out;
  int n = 0;
  for (int l = 0; l < lines; ++l) {
    for (int d = 0; d < depth; ++d) {
      if (d) out += ';';
      out += 'f' + std::to_string(n++);
    }
    out += " 1\n";
  }
  return out;
}

}  // namespace proflow::testing
