//===- TransposeBlocksTest.cpp - 2-D transposes in register blocks --------===//
//
// linalg.transpose of random matrices through the CPU pipeline and the JIT,
// compiled for this machine and for Zen 3 (AVX2): mixer-vectorize-cpu moves
// them in 16 x 16 or 8 x 8 blocks of register shuffles (8 x 8 on AVX2, and
// on AVX-512 where a dim is 8). A transpose moves data, so every element
// must come out exactly; each case prints how many did not.
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

#include "mixer/Reference/Reference.h"

#include <cstdio>

using namespace mixer::test;
namespace ref = ::mixer::ref;

namespace {

struct TransposeCase {
  int64_t rows, columns;
  const char *targetCpu; // "" for this machine
};

std::string transposeModule(int64_t rows, int64_t columns) {
  std::string in = tensorType({rows, columns});
  std::string out = tensorType({columns, rows});
  return "func.func @t(%a: " + in + ", %o: " + out +
         " {bufferization.writable = true}) -> " + out +
         " {\n"
         "  %t = linalg.transpose ins(%a : " +
         in + ") outs(%o : " + out +
         ") permutation = [1, 0]\n"
         "  return %t : " +
         out + "\n}\n";
}

class TransposeBlocks : public ::testing::TestWithParam<TransposeCase> {};

TEST_P(TransposeBlocks, EveryElementMoves) {
  const TransposeCase &c = GetParam();
  CompiledModule compiled(transposeModule(c.rows, c.columns),
                          /*naive=*/false, /*recurrentThreshold=*/-1,
                          /*runtimeChecks=*/true, c.targetCpu);
  ASSERT_TRUE(compiled.ok());
  ref::Rng rng(7);
  Buffer a{{c.rows, c.columns}, {}};
  for (int64_t i = 0; i < c.rows * c.columns; ++i)
    a.data.push_back(static_cast<float>(rng.uniform(-1.0, 1.0)));
  Buffer o{{c.columns, c.rows}, std::vector<float>(c.rows * c.columns, 0.0f)};
  compiled.callBuffers("t", {&a, &o});
  int64_t wrong = 0;
  for (int64_t i = 0; i < c.rows; ++i)
    for (int64_t j = 0; j < c.columns; ++j)
      wrong += o.data[j * c.rows + i] != a.data[i * c.columns + j];
  std::printf("transpose %lldx%lld (%s): %lld of %lld elements wrong\n",
              static_cast<long long>(c.rows), static_cast<long long>(c.columns),
              *c.targetCpu ? c.targetCpu : "this machine",
              static_cast<long long>(wrong),
              static_cast<long long>(c.rows * c.columns));
  EXPECT_EQ(wrong, 0);
}

INSTANTIATE_TEST_SUITE_P(Shapes, TransposeBlocks,
                         ::testing::Values(TransposeCase{8, 64, ""},
                                           TransposeCase{64, 8, ""},
                                           TransposeCase{24, 40, ""},
                                           TransposeCase{32, 48, ""},
                                           TransposeCase{8, 64, "znver3"},
                                           TransposeCase{24, 40, "znver3"},
                                           TransposeCase{32, 48, "znver3"},
                                           TransposeCase{12, 20, "znver3"}));

} // namespace
