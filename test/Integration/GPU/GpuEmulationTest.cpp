//===- GpuEmulationTest.cpp - the GPU kernels' numbers, run on the CPU ----===//
//
// Compiles one function per mixer op through mixer-lower-gpu-mapped-to-cpu:
// the thread-mapped kernels of the NVVM pipeline (same tiling, shared-memory
// temporaries and barriers), each block's threads run as OpenMP threads.
// Runs them on random inputs and compares with the fp64 reference, printing
// the relative error max|out - ref| / max|ref| of every output.
//
//===----------------------------------------------------------------------===//

#include "OpCases.h"

#include "mlir/Pass/PassManager.h"

#include <gtest/gtest.h>

#include <cstdlib>

using namespace ::mixer::test;

namespace {

/// The thread-mapped kernels of the NVVM pipeline, run on the CPU.
const OpRunner &emulated() {
  static const OpRunner runner = {
      "gpu-emulated",
      [](const std::string &source, const char *name, std::vector<Arg> &args) {
        CompiledModule module(source, [](mlir::ModuleOp module) {
          mlir::PassManager pm(module.getContext());
          mlir::mixer::NvvmPipelineOptions options;
          mlir::mixer::buildLowerGpuMappedToCpuPipeline(pm, options);
          return pm.run(module);
        });
        ASSERT_TRUE(module.ok()) << "compilation failed:\n" << source;
        call(module, name, args);
      }};
  return runner;
}

TEST(GpuEmulated, Ssd) { ssdCase(emulated()); }
TEST(GpuEmulated, SelectiveScan) { selectiveScanCase(emulated()); }
TEST(GpuEmulated, LinearAttention) { linearAttentionCase(emulated()); }
TEST(GpuEmulated, GatedDeltaRule) { gatedDeltaRuleCase(emulated()); }
TEST(GpuEmulated, KernelMv) { kernelMvCase(emulated()); }
TEST(GpuEmulated, KernelLse) { kernelLseCase(emulated()); }
TEST(GpuEmulated, TransportCost) { transportCostCase(emulated()); }
TEST(GpuEmulated, Sinkhorn) { sinkhornCase(emulated()); }
TEST(GpuEmulated, GroupedMatmul) { groupedMatmulCase(emulated()); }
TEST(GpuEmulated, GroupedSwiglu) { groupedSwigluCase(emulated()); }
TEST(GpuEmulated, TopkRouter) { topkRouterCase(emulated()); }
TEST(GpuEmulated, MoeDispatchAndCombine) { moeDispatchAndCombineCase(emulated()); }

} // namespace

int main(int argc, char **argv) {
  // A block's threads are OpenMP threads, more of them than cores: waiting
  // threads must sleep at barriers instead of spinning.
  setenv("KMP_BLOCKTIME", "0", /*overwrite=*/0);
  setenv("OMP_WAIT_POLICY", "passive", /*overwrite=*/0);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
