//===- CpuTargetTest.cpp - CPU target descriptions ------------------------===//
//
// The JIT describes this machine's CPU from LLVM's host queries, mixer-compile
// and mixer-set-target from a subtarget of the same name and features: both
// must give one description, caches included. A named CPU keeps its own
// caches when features change its vector ISA.
//
//===----------------------------------------------------------------------===//

#include "mixer/Target/CpuTarget.h"

#include "gtest/gtest.h"

#include <string>

using namespace mlir::mixer;

namespace {

TEST(CpuTarget, HostIsTheSameThroughBothPaths) {
  std::string error;
  mlir::FailureOr<TargetDescription> named =
      getCpuTargetDescription("host", "", error);
  ASSERT_TRUE(mlir::succeeded(named)) << error;
  TargetDescription jit = getHostCpuTargetDescription();
  EXPECT_EQ(jit.vectorWidth, named->vectorWidth);
  EXPECT_EQ(jit.l1CacheBytes, named->l1CacheBytes);
  EXPECT_EQ(jit.l2CacheBytes, named->l2CacheBytes);
  EXPECT_TRUE(jit == *named);
  EXPECT_GT(jit.l1CacheBytes, 0);
  EXPECT_LT(jit.l1CacheBytes, jit.l2CacheBytes);
}

TEST(CpuTarget, FeaturesChangeTheRegistersNotTheCaches) {
  std::string error;
  mlir::FailureOr<TargetDescription> zen5 =
      getCpuTargetDescription("znver5", "", error);
  mlir::FailureOr<TargetDescription> zen5Avx2 =
      getCpuTargetDescription("znver5", "-avx512f", error);
  ASSERT_TRUE(mlir::succeeded(zen5) && mlir::succeeded(zen5Avx2)) << error;
  EXPECT_EQ(zen5->vectorWidth, 16);
  EXPECT_EQ(zen5Avx2->vectorWidth, 8);
  EXPECT_EQ(zen5Avx2->vectorRegisters, 16);
  EXPECT_EQ(zen5->l1CacheBytes, 48 * 1024);
  EXPECT_EQ(zen5Avx2->l1CacheBytes, zen5->l1CacheBytes);
  EXPECT_EQ(zen5Avx2->l2CacheBytes, zen5->l2CacheBytes);
}

TEST(CpuTarget, CachesDifferWhereTheCpusDo) {
  std::string error;
  auto l2Of = [&](llvm::StringRef cpu) {
    mlir::FailureOr<TargetDescription> target =
        getCpuTargetDescription(cpu, "", error);
    EXPECT_TRUE(mlir::succeeded(target)) << error;
    return mlir::succeeded(target) ? target->l2CacheBytes : 0;
  };
  EXPECT_EQ(l2Of("znver3"), 512 * 1024);
  EXPECT_EQ(l2Of("znver4"), 1024 * 1024);
  EXPECT_EQ(l2Of("sapphirerapids"), 2048 * 1024);
  EXPECT_EQ(l2Of("haswell"), 256 * 1024);
}

} // namespace
