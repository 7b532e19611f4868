//===- TargetDescription.h - what the lowerings know of a target *- C++ -*-===//
//
// The block sizes and register tiles of the lowerings, the tile sizes of
// mixer-tile-parallel-dims and the memory space of temporaries, in one
// struct per target. The passes read it from the `mixer.target` attribute of
// the module (mixer-set-target, mixer-compile and the JIT attach it); a
// module without one compiles for the default CPU, AVX-512.
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_TARGET_TARGETDESCRIPTION_H
#define MIXER_TARGET_TARGETDESCRIPTION_H

#include "mlir/IR/Attributes.h"
#include "mlir/Support/LLVM.h"
#include "llvm/Support/Threading.h"

#include <algorithm>
#include <optional>

namespace mlir {
class DictionaryAttr;
class InFlightDiagnostic;
class MLIRContext;
class Operation;
namespace mixer {

/// FMAs per token and head of a chunked scan's forward, for
/// TargetDescription::scanChunk: its causal products (the chunk's scores,
/// solves) cost `causalPerChunkToken` for each token of its chunk, its state
/// products `state` whatever the chunk.
struct ScanWork {
  int64_t causalPerChunkToken = 0;
  int64_t state = 0;
};

struct TargetDescription {
  /// f32 lanes of a vector register and the number of vector registers.
  int64_t vectorWidth = 16;
  int64_t vectorRegisters = 32;
  /// Data cache sizes per core, in bytes.
  int64_t l1CacheBytes = 48 * 1024;
  int64_t l2CacheBytes = 1024 * 1024;
  /// Rows of a contraction's register block (mixer-vectorize-cpu): the block
  /// holds 2 * registerTileRows accumulators of vectorWidth lanes.
  int64_t registerTileRows = 8;
  /// Accumulators of the wide register block, which a contraction over at
  /// least 16 reduction steps takes where it has rows for two blocks of it
  /// (mixer-vectorize-cpu): 4 or 2 vectors wide, as many rows as fill
  /// it. Three quarters of the vector registers, the rest holding the
  /// right-hand side's vectors and a broadcast: 24 with AVX-512 (6 x 4 or
  /// 12 x 2 zmm), 12 with AVX2 (6 x 2 ymm, the block above). No more than
  /// 2 * registerTileRows: none.
  int64_t registerBlockAccumulators = 24;
  /// Columns of that register block: two vectors. The grouped GEMMs pack
  /// their weights in panels of this width.
  int64_t registerTileColumns() const { return 2 * vectorWidth; }
  /// Rows of the largest such block that fits in the registers beside two
  /// vectors of the right-hand side and two broadcasts: the micro-kernel of
  /// the grouped GEMMs (14 with AVX-512's 32 registers, 6 with AVX2's 16).
  int64_t gemmTileRows() const { return (vectorRegisters - 4) / 2; }
  /// Columns of y per block of the kernel sums' column loop.
  int64_t kernelColumnBlock = 64;
  /// Rows of a full slab of the grouped GEMMs (a power of two); the rest of
  /// a group is covered by at most one slab of each smaller power of two.
  int64_t moeSlabRows = 16;
  /// Tokens per block of mixer.selective_scan's time loop.
  int64_t scanTimeBlock = 16;
  /// Largest channel block of mixer.selective_scan (a power of two).
  int64_t scanChannelBlockLimit = 64;
  /// Most heads of one group per parallel tile of mixer.ssd,
  /// mixer.linear_attention and mixer.gated_delta_rule (a power of two),
  /// which step through each chunk together: ssd's share each chunk's b, c
  /// and their product, built once per chunk for all of them; every scan's
  /// heads read adjacent rows of the time-major inputs; their states stay
  /// in L2. 1 on GPUs: a block per head.
  int64_t scanHeadBlockLimit = 4;
  /// Threads that will run the parallel loops (mixer-set-threads; the CPU
  /// pipeline's num-threads); 0: unknown, then the compiling machine's
  /// (parallelThreads). In the attribute only when set, so that printed IR
  /// does not depend on the machine.
  int64_t threads = 0;
  /// Rows per parallel tile of the kernel sums and the MoE router.
  int64_t parallelRowBlock = 64;
  /// Memory space of the lowerings' temporaries; null: the default memory.
  Attribute tempMemorySpace;
  /// Whether scans keep their states transposed ([N, P]) so that every
  /// contraction reads a row-major right-hand side (the CPU's outer-product
  /// FMAs want it).
  bool transposedStates = true;
  /// Most tokens per chunk of the chunked scans' forward (ssd,
  /// linear_attention, gated_delta_rule) where chunk_size does not change
  /// the result (scanChunk); 0: the op's chunk_size. On CPUs one
  /// triangular block, 16: a chunk of C tokens costs about C (Dk + Dv)
  /// FMAs per token and head in its causal products beside the state's
  /// 2 Dk Dv (ssd, linear attention; the gated delta rule twice that beside
  /// 3 Dk Dv, ScanWork), the products of 16 rows still fill the register
  /// blocks, and the per-chunk passes cost
  /// less than the FMAs saved (scanChunk shortens the gated delta rule's by
  /// its work). GPUs keep the op's chunk: their tensor-core tiles want long
  /// chunks.
  int64_t scanChunkLimit = 16;
  /// GPU only: threads per warp and shared memory per block, in bytes.
  std::optional<int64_t> warpSize;
  std::optional<int64_t> sharedMemoryBytes;
  /// GPU only: threads of a block (mixer-map-forall-to-gpu spreads each
  /// block's linalg ops over them).
  std::optional<int64_t> threadsPerBlock;

  /// Rows per block of the chunked scans' lower-triangular work (causal
  /// products that skip the blocks above the diagonal, triangular solves
  /// by diagonal blocks); 0: whole. On CPUs 16: the skipped work is
  /// FMAs, and the solve's row-by-row products are latency bound. On GPUs
  /// the extra temporaries of the blocked forms cost registers.
  int64_t triangularBlockRows() const { return isGpu() ? 0 : 16; }

  /// The shortest chunk scanChunk makes: below 8 tokens the per-chunk
  /// passes (prefix sums, exps, copies) cost more than the causal FMAs
  /// saved (the gated delta rule at D = 64: 4-token chunks took about 1.15x
  /// as long as 8-token ones with AVX-512 code, 1.02x with AVX2 code).
  static constexpr int64_t kShortestScanChunk = 8;

  /// The chunk of a scan's chunked forward for an op's `chunk_size`: at most
  /// scanChunkLimit tokens where that is positive, halved (not below
  /// kShortestScanChunk) while the causal products of `work` cost more than
  /// a quarter of its state products; the op's chunk where the op returns
  /// its chunk-boundary states, whose rows sit at multiples of chunk_size
  /// (without them the result does not depend on the chunk).
  int64_t scanChunk(int64_t chunkSize, bool returnsChunkStates,
                    ScanWork work = {}) const {
    if (returnsChunkStates || scanChunkLimit <= 0)
      return chunkSize;
    int64_t chunk = std::min(chunkSize, scanChunkLimit);
    while (chunk / 2 >= kShortestScanChunk &&
           4 * chunk * work.causalPerChunkToken > work.state)
      chunk /= 2;
    return chunk;
  }

  /// Whether this describes a GPU (the per-block temporaries then go to
  /// tempMemorySpace only as far as sharedMemoryBytes allows, which
  /// mixer-map-forall-to-gpu decides once sizes are known).
  bool isGpu() const { return warpSize.has_value(); }

  /// Channels per block of mixer.selective_scan, the "head" of its scan and
  /// the tile of mixer-tile-parallel-dims: the largest power of two up to
  /// scanChannelBlockLimit that divides the channels of a group, so that a
  /// block reads one group.
  int64_t selectiveScanChannelBlock(int64_t channelsPerGroup) const {
    for (int64_t block = scanChannelBlockLimit; block > 1; block /= 2)
      if (channelsPerGroup % block == 0)
        return block;
    return 1;
  }

  /// `threads`, or when unknown the threads of this machine: the code runs
  /// where it is compiled (the JIT; mixer-compile assumes so), with
  /// OpenMP's default team of one thread per logical CPU the process may
  /// use. LLVM's count honours the affinity mask as OpenMP does
  /// (std::thread::hardware_concurrency counts every CPU of the machine);
  /// physical cores would leave the SMT threads without tiles.
  int64_t parallelThreads() const {
    if (threads > 0)
      return threads;
    return std::max<int64_t>(
        1, llvm::hardware_concurrency().compute_thread_count());
  }

  /// Heads per tile of the chunked scans: the largest power of two up to
  /// scanHeadBlockLimit that divides the heads of a group into at least two
  /// tiles (a group is never left to one thread) and leaves at least one
  /// tile per thread: `groupTiles` (batch x groups) x headsPerGroup / block
  /// >= parallelThreads(). A larger block shares more of each chunk's work
  /// but only helps while no thread is left idle; down to 1 head otherwise.
  int64_t scanHeadBlock(int64_t headsPerGroup, int64_t groupTiles) const {
    int64_t threadCount = parallelThreads();
    for (int64_t block = scanHeadBlockLimit; block > 1; block /= 2)
      if (headsPerGroup % block == 0 && headsPerGroup / block >= 2 &&
          groupTiles * (headsPerGroup / block) >= threadCount)
        return block;
    return 1;
  }

  bool operator==(const TargetDescription &other) const;
};

/// A CPU with AVX-512 (32 registers of 16 f32 lanes, the default target),
/// with AVX/AVX2 only (16 registers of 8 lanes) or SSE (16 of 4).
enum class CpuVectorIsa { SSE, AVX2, AVX512 };
TargetDescription getCpuTargetDescription(CpuVectorIsa isa);

/// The description of the default target: the CPU with AVX-512.
inline TargetDescription getDefaultTargetDescription() {
  return getCpuTargetDescription(CpuVectorIsa::AVX512);
}

/// The name of the attribute by which a lowering asks mixer-vectorize-cpu for
/// register blocks of that many rows on one contraction.
inline constexpr StringLiteral kRegisterTileRowsAttrName =
    "mixer.register_tile_rows";

/// The name of the attribute by which a lowering asks that each step k of a
/// contraction's K loop (or of the row loop of a copy or elementwise op)
/// also prefetch row k + R of the buffers whose row k it reads or copies
/// into (mixer-vectorize-cpu carries it to that loop, mixer-prefetch-rows
/// emits the prefetches).
inline constexpr StringLiteral kPrefetchRowsAheadAttrName =
    "mixer.prefetch_rows_ahead";

/// The name of the attribute by which a lowering asks that each step k of a
/// contraction's K loop also prefetch row k + R of the right-hand side it
/// reads into L1, whatever buffer holds it (a panel packed into a local
/// buffer included): for a micro-kernel whose panel streams from L2 faster
/// than the hardware's L1 prefetchers bring it in.
inline constexpr StringLiteral kPrefetchPanelRowsAttrName =
    "mixer.prefetch_panel_rows";

/// The name of the module attribute that carries the description.
inline constexpr StringLiteral kTargetAttrName = "mixer.target";

/// The description as a dictionary ({vector_width = 16 : i64, ...}).
DictionaryAttr getTargetAttr(MLIRContext *context,
                             const TargetDescription &target);

/// The description a dictionary states: the default target's values for the
/// entries it omits. Errors name the entry.
FailureOr<TargetDescription>
parseTargetAttr(DictionaryAttr attr,
                function_ref<InFlightDiagnostic()> emitError);

/// `target` with the entries that `overrides` names changed:
/// "name=value,..." over the names of the attribute (`l1_cache_bytes=65536`,
/// `transposed_states=false`), each value checked as the attribute's is.
/// For experiments with one choice of the description at a time.
FailureOr<TargetDescription>
overrideTargetEntries(MLIRContext *context, const TargetDescription &target,
                      StringRef overrides,
                      function_ref<InFlightDiagnostic()> emitError);

/// Attaches `target` to `op` (a module) as `mixer.target`.
void setTargetDescription(Operation *op, const TargetDescription &target);

/// The target of `op`: the `mixer.target` of `op` or of its closest ancestor
/// that has one, else the default target. Fails (with an error on the op
/// holding the attribute) when the attribute is malformed.
FailureOr<TargetDescription> getTargetDescription(Operation *op);

/// The same for rewrite patterns, whose pass checked the attribute first:
/// the default target when it is malformed.
TargetDescription lookupTargetDescription(Operation *op);

} // namespace mixer
} // namespace mlir

#endif // MIXER_TARGET_TARGETDESCRIPTION_H
