//===- GpuTarget.cpp - the description of an NVIDIA GPU -------------------===//

#include "mixer/Target/GpuTarget.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/MLIRContext.h"

using namespace mlir;
using namespace mlir::mixer;

FailureOr<TargetDescription>
mlir::mixer::getGpuTargetDescription(MLIRContext *context, StringRef chip,
                                     int64_t threadsPerBlock,
                                     std::string &error) {
  // L1 (with shared memory) per SM and L2 of the A100 and the H100.
  struct Chip {
    StringLiteral name;
    int64_t l1, l2;
  };
  static constexpr Chip kChips[] = {{"sm_80", 192 * 1024, 40 << 20},
                                    {"sm_90", 256 * 1024, 50 << 20},
                                    {"sm_90a", 256 * 1024, 50 << 20}};
  const Chip *found =
      llvm::find_if(kChips, [&](const Chip &c) { return c.name == chip; });
  if (found == std::end(kChips)) {
    error = "unknown GPU chip '" + chip.str() + "' (sm_80, sm_90 or sm_90a)";
    return failure();
  }
  if (threadsPerBlock == 0)
    threadsPerBlock = 128;
  if (threadsPerBlock < 0 || threadsPerBlock > 1024 || threadsPerBlock % 32) {
    error = "threads per block must be a multiple of 32 up to 1024, got " +
            std::to_string(threadsPerBlock);
    return failure();
  }
  TargetDescription target;
  // One thread computes one element at a time: no vector registers.
  target.vectorWidth = 1;
  target.vectorRegisters = 1;
  target.registerTileRows = 1;
  target.registerBlockAccumulators = 1;
  target.l1CacheBytes = found->l1;
  target.l2CacheBytes = found->l2;
  target.warpSize = 32;
  // Static shared memory: more needs an opt-in at launch on every chip.
  target.sharedMemoryBytes = 48 * 1024;
  target.threadsPerBlock = threadsPerBlock;
  // The chunked scans keep their states transposed ([N, P]) on every target.
  target.transposedStates = true;
  // One block per 64 rows of the kernel sums and the router; the other
  // tiles are the CPU's (one block per head or channel block).
  target.parallelRowBlock = 64;
  // One block per head of mixer.ssd: its threads share nothing across heads.
  target.scanHeadBlockLimit = 1;
  // The op's chunk: tensor-core tiles want long chunks.
  target.scanChunkLimit = 0;
  target.tempMemorySpace =
      gpu::AddressSpaceAttr::get(context, gpu::AddressSpace::Workgroup);
  return target;
}
