//===- PackedProducts.h - products over a packed right-hand side -*- C++ -*-===//
//
// The backward grouped GEMMs multiply blocks of rows by a [Kd, N] matrix
// (a weight, its transpose, or a block of the cotangent) that many slabs of
// rows reuse. As in the forward (GroupedPanels.h), the matrix is first
// copied into contiguous [Kd, width] panels, width the register tile's
// columns, so that the micro-kernel (contractPanel) reads each panel from
// consecutive cache lines instead of rows a power of two apart. The panels
// go to threads (scf.forall) where mixer-tile-parallel-dims has not split
// the op already: grouped_swiglu_backward's results share no parallel
// dimension; grouped_matmul_backward is split over K, and its tiles take
// their panels in order.
// Defined in PackedProducts.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_LIB_CONVERSION_MIXERTOLINALG_PACKEDPRODUCTS_H
#define MIXER_LIB_CONVERSION_MIXERTOLINALG_PACKEDPRODUCTS_H

#include "mixer/Utils/LinalgBuilder.h"

namespace mlir::mixer {

/// The register tile of the packed products: `width` columns per panel,
/// `rows` rows per micro-kernel call; `l1CacheBytes` (0 on GPUs) decides
/// whether a panel stays in L1 while slab after slab sweeps it, or streams
/// from L2 and is prefetched into L1 by the micro-kernel.
struct PanelTile {
  int64_t width, rows;
  int64_t l1CacheBytes = 0;
};

/// Where panel p's tile of an output of forEachPanel lies: its columns
/// [p * width, (p + 1) * width) ([rows, width]) or its panel p of a packed
/// [panels, Kd, width] buffer ([Kd, width]).
enum class PanelSlot { Columns, Packed };

/// Computes the tiles of panels [0, count) of `outs`, in parallel
/// (scf.forall) or, inside a thread's tile already, in order (scf.for):
/// `body(lb, p, col0, tiles)` gets panel p's first column and the current
/// tile of each output, and returns its new tiles. All shapes static.
using PanelTilesBody = function_ref<SmallVector<Value>(
    LinalgBuilder &lb, Value p, Value col0, ValueRange tiles)>;
SmallVector<Value> forEachPanel(LinalgBuilder &lb, int64_t count,
                                PanelTile tile, ValueRange outs,
                                ArrayRef<PanelSlot> slots, PanelTilesBody body,
                                bool parallel = true);

/// An uninitialized buffer of the panels of a [Kd, N] matrix:
/// [N / width, Kd, width]. Needs static Kd and N, N a multiple of width.
Value emptyPanels(LinalgBuilder &lb, int64_t Kd, int64_t N, PanelTile tile);

/// `src` [Kd, width] copied into the panel `dest` [Kd, width], or with
/// `transposed` `src` [width, Kd] transposed into it: the one copy that
/// packing makes one panel at a time (the backward's, transposed weights',
/// and a forward's whose N is not whole panels; packPanelsByRows the rest).
Value packPanel(LinalgBuilder &lb, Value src, Value dest, bool transposed);

/// `matrix` [Kd, N] copied into all of `panels` [N / width, Kd, width] in
/// one pass over its rows: each row read once, contiguously, into that row
/// of every panel (packPanel's copies, one panel at a time, read a panel's
/// rows N floats apart). Static shapes.
Value packPanelsByRows(LinalgBuilder &lb, Value matrix, Value panels);

/// `matrix` [Kd, N] copied into `panels` (from emptyPanels); with
/// `transposed`, `matrix` is [N, Kd] and its transpose is packed. The
/// panels in parallel, or in order (see forEachPanel).
Value packPanels(LinalgBuilder &lb, Value matrix, Value panels, PanelTile tile,
                 bool transposed, bool parallel = true);

/// Panel `p` ([Kd, width]) of a packed buffer.
Value panelAt(LinalgBuilder &lb, Value panels, Value p);

/// acc [M, width] += lhs [M, Kd] x panel [Kd, width] in slabs of
/// `tile.rows` rows, each one micro-kernel call; with `zeroFirst`, each slab
/// of acc is zeroed first (acc = lhs x panel). A panel that does not stay
/// in L1 across the slabs is prefetched into L1 a few rows ahead by each
/// call (panelPrefetchRows, GroupedPanels.h).
Value multiplyPanel(LinalgBuilder &lb, Value lhs, Value panel, Value acc,
                    PanelTile tile, bool zeroFirst);

} // namespace mlir::mixer

#endif // MIXER_LIB_CONVERSION_MIXERTOLINALG_PACKEDPRODUCTS_H
