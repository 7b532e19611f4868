//===- TorchCpuSettingsTest.cpp - PyTorch settings per CPU ----------------===//
//
// The feature sets of four CPUs the benchmark runs on (as LLVM names them
// for -mcpu=znver3, znver5, skylake-avx512, sapphirerapids), and two
// corner cases: AVX-512 F without BW (Knights Landing) and no AVX at all.
//
//===----------------------------------------------------------------------===//

#include "TorchCpuSettings.h"

#include "gtest/gtest.h"

#include <set>
#include <string>

using namespace mixer::bench;

namespace {
TorchCpuSettings settingsOf(const std::set<std::string> &features) {
  return chooseTorchCpuSettings([&](llvm::StringRef feature) {
    return features.count(feature.str()) > 0;
  });
}

const std::set<std::string> kAvx2 = {"sse4.2", "avx", "avx2", "fma", "f16c",
                                      "bmi2"};
std::set<std::string> with(std::set<std::string> base,
                           std::initializer_list<const char *> more) {
  for (const char *f : more)
    base.insert(f);
  return base;
}
const std::set<std::string> kAvx512 =
    with(kAvx2, {"avx512f", "avx512bw", "avx512vl", "avx512dq", "avx512cd"});
} // namespace

TEST(TorchCpuSettings, Znver3IsAvx2WithHaswellKernels) {
  TorchCpuSettings s = settingsOf(with(kAvx2, {"vaes", "vpclmulqdq"}));
  EXPECT_EQ(s.atenCapability, "avx2");
  EXPECT_EQ(s.openblasCoreType, "Haswell");
  EXPECT_EQ(s.mklInstructions, "AVX2");
}

TEST(TorchCpuSettings, Znver5IsAvx512) {
  TorchCpuSettings s = settingsOf(
      with(kAvx512, {"avx512bf16", "avx512vnni", "avx512vbmi", "avxvnni"}));
  EXPECT_EQ(s.atenCapability, "avx512");
  EXPECT_EQ(s.openblasCoreType, "SkylakeX");
}

TEST(TorchCpuSettings, SkylakeAvx512IsAvx512) {
  TorchCpuSettings s = settingsOf(kAvx512);
  EXPECT_EQ(s.atenCapability, "avx512");
  EXPECT_EQ(s.openblasCoreType, "SkylakeX");
  EXPECT_EQ(s.mklInstructions, "AVX512");
}

TEST(TorchCpuSettings, SapphireRapidsIsAvx512) {
  TorchCpuSettings s = settingsOf(with(
      kAvx512, {"avx512bf16", "avx512fp16", "amx-tile", "amx-bf16", "amx-int8"}));
  EXPECT_EQ(s.atenCapability, "avx512");
  EXPECT_EQ(s.openblasCoreType, "SkylakeX");
}

// ATen's avx512 kernels use BW, VL and DQ: F alone is not enough.
TEST(TorchCpuSettings, Avx512FoundationAloneIsAvx2) {
  TorchCpuSettings s = settingsOf(with(kAvx2, {"avx512f", "avx512cd"}));
  EXPECT_EQ(s.atenCapability, "avx2");
  EXPECT_EQ(s.openblasCoreType, "Haswell");
}

TEST(TorchCpuSettings, NoAvxLeavesOpenBlasToDetect) {
  TorchCpuSettings s = settingsOf({"sse4.2", "popcnt"});
  EXPECT_EQ(s.atenCapability, "default");
  EXPECT_EQ(s.openblasCoreType, "");
  EXPECT_EQ(s.mklInstructions, "");
}

TEST(TorchCpuSettings, AvxWithoutAvx2IsSandybridge) {
  TorchCpuSettings s = settingsOf({"sse4.2", "avx"});
  EXPECT_EQ(s.atenCapability, "default");
  EXPECT_EQ(s.openblasCoreType, "Sandybridge");
  EXPECT_EQ(s.mklInstructions, "AVX");
}
