//===- PrefetchPanels.cpp - prefetches in the micro-kernel's K loop -------===//
//
// A K loop that mixer-vectorize-cpu marked with `mixer.prefetch_rhs_rows =
// R` reads one row of its right-hand side per step, [k, c .. c + w), from a
// rank-2 buffer (directly or through a one-row subview). Each step then also
// prefetches row k + R of that buffer, one prefetch per cache line of the
// row, into L2: the grouped GEMMs ask for the same columns of the next
// expert's weights, so that they stream in from memory while this
// expert's FMAs run instead of stalling its first slab. Prefetches are
// hints: a row past the buffer's end (after the last expert) faults on no
// CPU and is never read.
//
//===----------------------------------------------------------------------===//

#include "mixer/Codegen/CPU/Passes.h"
#include "mixer/Target/TargetDescription.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"

namespace mlir::mixer {
#define GEN_PASS_DEF_MIXERPREFETCHPANELSPASS
#include "mixer/Codegen/CPU/Passes.h.inc"
} // namespace mlir::mixer

using namespace mlir;

namespace {
/// A row of the right-hand side that a K loop step reads: `buffer`[row,
/// col .. col + width).
struct RowRead {
  Value buffer;
  OpFoldResult col;
  int64_t width;
};
} // namespace

/// The row that `read` (a 1 x width vector read) takes from a rank-2
/// buffer defined outside `loop` at row `iv`, if it is one.
static std::optional<RowRead> rowReadOf(vector::TransferReadOp read,
                                        scf::ForOp loop) {
  auto vectorType = read.getVectorType();
  if (vectorType.getRank() != 2 || vectorType.getDimSize(0) != 1)
    return std::nullopt;
  Value iv = loop.getInductionVar();
  Value source = read.getBase();
  auto isZero = [](Value v) { return isConstantIntValue(v, 0); };
  // Read at [k, c] of the buffer itself.
  if (loop.isDefinedOutsideOfLoop(source) &&
      cast<MemRefType>(source.getType()).getRank() == 2 &&
      read.getIndices()[0] == iv)
    return RowRead{source, getAsOpFoldResult(read.getIndices()[1]),
                   vectorType.getDimSize(1)};
  // Read at [0, 0] of the one-row subview [k, c] of the buffer.
  auto subview = source.getDefiningOp<memref::SubViewOp>();
  if (!subview || !llvm::all_of(read.getIndices(), isZero) ||
      !loop.isDefinedOutsideOfLoop(subview.getSource()) ||
      subview.getSourceType().getRank() != 2 ||
      !subview.hasUnitStride())
    return std::nullopt;
  SmallVector<OpFoldResult> offsets = subview.getMixedOffsets();
  if (getConstantIntValue(offsets[0]) || cast<Value>(offsets[0]) != iv)
    return std::nullopt;
  return RowRead{subview.getSource(), offsets[1], vectorType.getDimSize(1)};
}

/// Adds the prefetches of row k + `ahead` of every right-hand side row that
/// `loop` reads, one per cache line, at the start of its body.
static void prefetchAhead(scf::ForOp loop, int64_t ahead, int64_t lineBytes) {
  SmallVector<RowRead> rows;
  loop.getBody()->walk([&](vector::TransferReadOp read) {
    std::optional<RowRead> row = rowReadOf(read, loop);
    // Its column must be known where the step starts.
    auto col = dyn_cast_if_present<Value>(row ? row->col : OpFoldResult());
    if (row && (!col || loop.isDefinedOutsideOfLoop(col)))
      rows.push_back(*row);
  });
  if (rows.empty())
    return;
  OpBuilder b = OpBuilder::atBlockBegin(loop.getBody());
  Location loc = loop.getLoc();
  Value row = arith::AddIOp::create(
      b, loc, loop.getInductionVar(),
      arith::ConstantIndexOp::create(b, loc, ahead));
  for (const RowRead &read : rows) {
    auto type = cast<MemRefType>(read.buffer.getType());
    int64_t lineElements = std::max<int64_t>(
        1, lineBytes * 8 / type.getElementTypeBitWidth());
    std::optional<int64_t> constCol = getConstantIntValue(read.col);
    for (int64_t c = 0; c < read.width; c += lineElements) {
      Value col;
      if (constCol)
        col = arith::ConstantIndexOp::create(b, loc, *constCol + c);
      else if (c == 0)
        col = cast<Value>(read.col);
      else
        col = arith::AddIOp::create(b, loc, cast<Value>(read.col),
                                    arith::ConstantIndexOp::create(b, loc, c));
      // Locality 2: into L2 (and L3), not L1, which the current panel uses.
      memref::PrefetchOp::create(b, loc, read.buffer, ValueRange{row, col},
                                 /*isWrite=*/false, /*localityHint=*/2,
                                 /*isDataCache=*/true);
    }
  }
}

namespace {
struct MixerPrefetchPanelsPass
    : public mixer::impl::MixerPrefetchPanelsPassBase<MixerPrefetchPanelsPass> {
  using Base::Base;
  void runOnOperation() override {
    getOperation().walk([&](scf::ForOp loop) {
      auto ahead =
          loop->getAttrOfType<IntegerAttr>(mixer::kPrefetchRhsRowsAttrName);
      if (!ahead)
        return;
      loop->removeAttr(mixer::kPrefetchRhsRowsAttrName);
      if (ahead.getInt() > 0)
        prefetchAhead(loop, ahead.getInt(), lineBytes);
    });
  }
};
} // namespace
