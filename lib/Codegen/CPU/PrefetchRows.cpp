//===- PrefetchRows.cpp - rows prefetched a fixed distance ahead ----------===//
//
// A loop that mixer-vectorize-cpu marked with `mixer.prefetch_rows_ahead =
// R` reads one row per step, [k, c .. c + w), of some rank-2 buffers
// (directly or through a one-row subview): the right-hand side of a
// micro-kernel's K loop, the source (and target) of a copy's row loop. Where
// the row is read in column tiles, by a loop nested in the step (AVX2's
// narrower tiles of an elementwise row), the step reads the columns that loop
// covers. Each step then also prefetches row k + R of those buffers, one
// prefetch per cache line of the columns read, into L2:
//   - the grouped GEMMs ask for the same panel of the next expert's
//     weights packed beforehand, which then streams in from memory while
//     this expert's FMAs run instead of stalling its first slab;
//   - the chunked scans ask for the next chunk's rows of their time-major
//     inputs (strided by the heads, so the hardware prefetchers do not
//     follow them) when they copy a chunk in, and of their output (for
//     writing) when they copy a chunk's output out; the selective scan
//     for the next time block's rows of u, delta and z.
// A negative R prefetches the rows before, for loops that walk their
// blocks from the last (the selective scan's backward). A loop marked with
// `mixer.prefetch_panel_rows = R` (the grouped GEMMs' K loop, where its
// panel streams from L2 or is read in place) prefetches row k + R of the
// rows it reads into L1 instead, whatever buffer holds them (a panel packed
// into a local one): AVX2's micro-kernel takes a line of the panel every 6
// cycles, faster than the L1 prefetchers bring it in. Prefetches are
// hints: a row past the buffer's end (after the last expert or chunk), or
// before its start, faults on no CPU and is never read.
//
//===----------------------------------------------------------------------===//

#include "mixer/Codegen/CPU/Passes.h"
#include "mixer/Target/TargetDescription.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"

namespace mlir::mixer {
#define GEN_PASS_DEF_MIXERPREFETCHROWSPASS
#include "mixer/Codegen/CPU/Passes.h.inc"
} // namespace mlir::mixer

using namespace mlir;

namespace {
/// A row that a loop step reads, or writes when `write`: `buffer`[row,
/// col .. col + width).
struct RowAccess {
  Value buffer;
  OpFoldResult col;
  int64_t width;
  bool write = false;
};
} // namespace

/// Whether `buffer` views a buffer that the function allocates: the rows
/// past a local buffer's tile are nothing a later step reads.
static bool isLocal(Value buffer) {
  buffer = memref::skipViewLikeOps(cast<MemrefValue>(buffer));
  return buffer.getDefiningOp<memref::AllocOp>() ||
         buffer.getDefiningOp<memref::AllocaOp>();
}

/// The row [iv, col .. col + width) of a rank-2 buffer defined outside
/// `loop` that `source` is the one-row subview of, if it is one.
static std::optional<RowAccess> oneRowSubviewOf(Value source, scf::ForOp loop) {
  auto subview = source.getDefiningOp<memref::SubViewOp>();
  if (!subview || !loop.isDefinedOutsideOfLoop(subview.getSource()) ||
      subview.getSourceType().getRank() != 2 || !subview.hasUnitStride())
    return std::nullopt;
  SmallVector<OpFoldResult> offsets = subview.getMixedOffsets();
  ArrayRef<int64_t> sizes = subview.getStaticSizes();
  if (getConstantIntValue(offsets[0]) ||
      cast<Value>(offsets[0]) != loop.getInductionVar() || sizes[0] != 1 ||
      ShapedType::isDynamic(sizes[1]))
    return std::nullopt;
  return RowAccess{subview.getSource(), offsets[1], sizes[1]};
}

/// The row that `read` (a 1 x width vector read) takes from a rank-2
/// buffer defined outside `loop` at row `iv`, if it is one.
static std::optional<RowAccess> rowReadOf(vector::TransferReadOp read,
                                          scf::ForOp loop) {
  auto vectorType = read.getVectorType();
  if (vectorType.getRank() != 2 || vectorType.getDimSize(0) != 1)
    return std::nullopt;
  Value source = read.getBase();
  // Read at [k, c] of the buffer itself.
  if (loop.isDefinedOutsideOfLoop(source) &&
      cast<MemRefType>(source.getType()).getRank() == 2 &&
      read.getIndices()[0] == loop.getInductionVar())
    return RowAccess{source, getAsOpFoldResult(read.getIndices()[1]),
                     vectorType.getDimSize(1)};
  // Read at [0, 0] of the one-row subview [k, c] of the buffer.
  auto isZero = [](Value v) { return isConstantIntValue(v, 0); };
  std::optional<RowAccess> row = oneRowSubviewOf(source, loop);
  if (!row || !llvm::all_of(read.getIndices(), isZero))
    return std::nullopt;
  row->width = vectorType.getDimSize(1);
  return row;
}

/// The columns that one step of `loop` reads of `row`: the row itself where
/// its column is known where the step starts; all of the column tiles where
/// it is the induction variable of a loop with constant bounds nested in the
/// step; none otherwise.
static std::optional<RowAccess> columnsPerStep(const RowAccess &row,
                                               scf::ForOp loop) {
  auto col = dyn_cast<Value>(row.col);
  if (!col || loop.isDefinedOutsideOfLoop(col))
    return row;
  scf::ForOp tiles = scf::getForInductionVarOwner(col);
  if (!tiles || !loop->isProperAncestor(tiles))
    return std::nullopt;
  std::optional<int64_t> lb = getConstantIntValue(tiles.getLowerBound());
  std::optional<int64_t> ub = getConstantIntValue(tiles.getUpperBound());
  std::optional<int64_t> step = getConstantIntValue(tiles.getStep());
  if (!lb || !ub || !step || *step <= 0 || *ub <= *lb)
    return std::nullopt;
  int64_t lastTile = *lb + (*ub - *lb - 1) / *step * *step;
  RowAccess covered = row;
  covered.col = IntegerAttr::get(IndexType::get(loop->getContext()), *lb);
  covered.width = lastTile - *lb + row.width;
  return covered;
}

namespace {
/// Where a loop's prefetches go: into L2, for rows of the caller's buffers
/// (the next expert's, the next chunk's), or into L1, for rows of any
/// buffer (a micro-kernel's panel, packed into a local one).
enum class PrefetchInto { L2, L1 };
} // namespace

/// Adds the prefetches of row k + `ahead` of every buffer row that `loop`
/// reads or copies into at k, one per cache line, at the start of its body.
static void prefetchAhead(scf::ForOp loop, int64_t ahead, int64_t lineBytes,
                          PrefetchInto into) {
  SmallVector<RowAccess> rows;
  // A row whose columns per step are known where the step starts, of a
  // buffer that outlives the function (into L2); once, however many tiles
  // read it.
  auto add = [&](std::optional<RowAccess> access) {
    if (!access || (into == PrefetchInto::L2 && isLocal(access->buffer)))
      return;
    std::optional<RowAccess> row = columnsPerStep(*access, loop);
    if (!row)
      return;
    bool seen = llvm::any_of(rows, [&](const RowAccess &other) {
      return other.buffer == row->buffer && other.col == row->col &&
             other.width == row->width && other.write == row->write;
    });
    if (!seen)
      rows.push_back(*row);
  };
  loop.getBody()->walk([&](Operation *op) {
    if (auto read = dyn_cast<vector::TransferReadOp>(op)) {
      add(rowReadOf(read, loop));
    } else if (auto copy = dyn_cast<memref::CopyOp>(op)) {
      add(oneRowSubviewOf(copy.getSource(), loop));
      std::optional<RowAccess> written =
          oneRowSubviewOf(copy.getTarget(), loop);
      if (written)
        written->write = true;
      add(written);
    }
  });
  if (rows.empty())
    return;
  OpBuilder b = OpBuilder::atBlockBegin(loop.getBody());
  Location loc = loop.getLoc();
  Value row =
      arith::AddIOp::create(b, loc, loop.getInductionVar(),
                            arith::ConstantIndexOp::create(b, loc, ahead));
  for (const RowAccess &access : rows) {
    auto type = cast<MemRefType>(access.buffer.getType());
    int64_t lineElements =
        std::max<int64_t>(1, lineBytes * 8 / type.getElementTypeBitWidth());
    std::optional<int64_t> constCol = getConstantIntValue(access.col);
    for (int64_t c = 0; c < access.width; c += lineElements) {
      Value col;
      if (constCol)
        col = arith::ConstantIndexOp::create(b, loc, *constCol + c);
      else if (c == 0)
        col = cast<Value>(access.col);
      else
        col = arith::AddIOp::create(b, loc, cast<Value>(access.col),
                                    arith::ConstantIndexOp::create(b, loc, c));
      // Locality 2: into L2 (and L3), not L1, which the current panel uses;
      // 3: into L1.
      memref::PrefetchOp::create(b, loc, access.buffer, ValueRange{row, col},
                                 /*isWrite=*/access.write,
                                 /*localityHint=*/into == PrefetchInto::L1 ? 3
                                                                           : 2,
                                 /*isDataCache=*/true);
    }
  }
}

namespace {
struct MixerPrefetchRowsPass
    : public mixer::impl::MixerPrefetchRowsPassBase<MixerPrefetchRowsPass> {
  using Base::Base;
  void runOnOperation() override {
    getOperation().walk([&](scf::ForOp loop) {
      for (auto [name, into] :
           {std::pair(mixer::kPrefetchRowsAheadAttrName, PrefetchInto::L2),
            std::pair(mixer::kPrefetchPanelRowsAttrName, PrefetchInto::L1)}) {
        auto ahead = loop->getAttrOfType<IntegerAttr>(name);
        if (!ahead)
          continue;
        loop->removeAttr(name);
        if (ahead.getInt() != 0)
          prefetchAhead(loop, ahead.getInt(), lineBytes, into);
      }
    });
  }
};
} // namespace
