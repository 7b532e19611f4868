//===- ScanChunkTest.cpp - the chunks of the chunked scans' forward -------===//
//
// TargetDescription::scanChunk: at most scan_chunk_limit tokens, halved
// (down to 8) while the causal products outweigh a quarter of the state
// products; the op's chunk with chunk states or without a limit.
//
//===----------------------------------------------------------------------===//

#include "mixer/Target/TargetDescription.h"

#include "gtest/gtest.h"

using namespace mlir::mixer;

namespace {

/// The gated delta rule's work per token at Dk = Dv = d.
ScanWork deltaRuleWork(int64_t d) { return {4 * d, 3 * d * d}; }

TEST(ScanChunk, TheLimitCapsTheOpChunk) {
  TargetDescription cpu = getDefaultTargetDescription();
  EXPECT_EQ(cpu.scanChunk(64, false), 16);
  EXPECT_EQ(cpu.scanChunk(8, false), 8);
  EXPECT_EQ(cpu.scanChunk(64, /*returnsChunkStates=*/true), 64);
  cpu.scanChunkLimit = 0;
  EXPECT_EQ(cpu.scanChunk(64, false, deltaRuleWork(64)), 64);
}

TEST(ScanChunk, HalvedWhileTheCausalWorkOutweighsAQuarter) {
  TargetDescription cpu = getDefaultTargetDescription();
  // 16 (4 * 64) = 4096 FMAs against 3 * 64^2 = 12288: more than a quarter.
  EXPECT_EQ(cpu.scanChunk(64, false, deltaRuleWork(64)), 8);
  // 16 (4 * 128) = 8192 against 49152: a sixth.
  EXPECT_EQ(cpu.scanChunk(64, false, deltaRuleWork(128)), 16);
  // Small heads stop at the shortest chunk.
  EXPECT_EQ(cpu.scanChunk(64, false, deltaRuleWork(4)),
            TargetDescription::kShortestScanChunk);
  // An op chunk under the shortest stays as it is.
  EXPECT_EQ(cpu.scanChunk(4, false, deltaRuleWork(4)), 4);
  // With chunk states the op's chunk stands whatever the work.
  EXPECT_EQ(cpu.scanChunk(32, true, deltaRuleWork(64)), 32);
}

} // namespace
