//===- KernelBlocks.h - the blocked loops of the kernel sums ----*- C++ -*-===//
//
// The row blocks and column blocks of the kernel sums, shared by the forward
// lowerings (KernelToLinalg.cpp) and the point gradients of their backward
// (KernelBackwardToLinalg.cpp): packing of x and y blocks (zero-padded when
// ragged), the squared distances of a block (summed directly or expanded
// around a contraction of centred points), and the loops over batch
// entries, row blocks and column blocks. See KernelToLinalg.cpp for the
// algorithm.
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_LIB_CONVERSION_MIXERTOLINALG_KERNELBLOCKS_H
#define MIXER_LIB_CONVERSION_MIXERTOLINALG_KERNELBLOCKS_H

#include "MixerToLinalgPatterns.h"
#include "mixer/Target/TargetDescription.h"
#include "mixer/Utils/KernelMath.h"
#include "mixer/Utils/LinalgBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"

#include <limits>

namespace mlir::mixer {

/// Row blocks: a tile of at most kMaxRowBlock rows is one block; longer (or
/// unbounded) row ranges are cut into blocks of kDefaultRowBlock rows.
inline constexpr int64_t kMaxRowBlock = 128;
inline constexpr int64_t kDefaultRowBlock = 64;

inline constexpr double kInf = std::numeric_limits<double>::infinity();

inline Value f32Const(ImplicitLocOpBuilder &b, double value) {
  return arith::ConstantOp::create(b, b.getF32FloatAttr(value));
}

/// The static number of rows per block for an x with `rows` rows: the
/// constant upper bound of `rows` when it is small (a tile), else
/// kDefaultRowBlock.
inline int64_t rowBlockSize(Value x, int64_t rowDim) {
  int64_t n = cast<RankedTensorType>(x.getType()).getDimSize(rowDim);
  if (ShapedType::isDynamic(n)) {
    FailureOr<int64_t> ub = ValueBoundsConstraintSet::computeConstantBound(
        presburger::BoundType::UB,
        ValueBoundsConstraintSet::Variable(x, rowDim),
        /*stopCondition=*/nullptr, /*closedUB=*/true);
    if (failed(ub))
      return kDefaultRowBlock;
    n = *ub;
  }
  if (n > kMaxRowBlock)
    return kDefaultRowBlock;
  return std::max<int64_t>(n, 1);
}

/// The squared distances of a [P, Q] block as the maps over it read them,
/// in one of three forms:
/// - summed directly in each map (`aColumns`, `bRows`): the D columns [P]
///   of a and rows [Q] of bT are inputs, and the map adds the D squared
///   differences in registers (a reduction dim d would instead be
///   vectorized one d at a time); nothing is stored, so a cheap map that
///   consumes r^2 is the only pass over the block;
/// - stored (`values` alone): r^2 itself (see stored), for a map whose
///   body needs its registers for an exp, or for several maps;
/// - expanded (`values` with the norms): the dot products, with the squared
///   norms of the rows [P] and columns [Q].
struct DistanceBlock {
  Value values, rowNorms, columnNorms;
  SmallVector<Value> aColumns, bRows;
  int64_t P, Q;

  bool expanded() const { return bool(rowNorms); }
  bool direct() const { return !values; }

  /// Appends what r^2 reads to the inputs of a map over the block: the
  /// columns and rows when direct, else `values` (unless the map writes
  /// over them, `inPlace`: see init) and the norms when expanded.
  void addInputs(LinalgBuilder &lb, SmallVectorImpl<Value> &ins,
                 SmallVectorImpl<AffineMap> &maps, bool inPlace) const {
    if (direct()) {
      for (Value column : aColumns) {
        ins.push_back(column);
        maps.push_back(lb.dims(2, {0}));
      }
      for (Value row : bRows) {
        ins.push_back(row);
        maps.push_back(lb.dims(2, {1}));
      }
      return;
    }
    if (!inPlace) {
      ins.push_back(values);
      maps.push_back(lb.dims(2, {0, 1}));
    }
    if (expanded()) {
      ins.append({rowNorms, columnNorms});
      maps.append({lb.dims(2, {0}), lb.dims(2, {1})});
    }
  }

  /// The init of a map over the block that writes in place of `values`
  /// (a new block when direct).
  Value init(LinalgBuilder &lb) const {
    if (!direct())
      return values;
    ImplicitLocOpBuilder &b = lb.builder();
    return lb.empty({b.getIndexAttr(P), b.getIndexAttr(Q)}, b.getF32Type());
  }

  /// r^2 from the entries of the inputs addInputs appended (`entries`, in
  /// order) and, for a map in place of `values`, its output entry `out`.
  Value r2(ImplicitLocOpBuilder &b, ValueRange entries,
           Value out = Value()) const {
    if (direct() && aColumns.empty()) // D = 0: every point coincides
      return f32Const(b, 0.0);
    if (direct())
      return sumOfSquaredDifferences(
          b, b.getLoc(), entries.take_front(aColumns.size()),
          entries.slice(aColumns.size(), bRows.size()));
    Value value = out ? out : entries.front();
    ValueRange norms = out ? entries : entries.drop_front();
    if (!expanded())
      return value;
    return squaredDistanceFromDot(b, b.getLoc(), norms[0], norms[1], value);
  }

  /// The same distances stored once: a direct block is summed into a new
  /// [P, Q] block; the others are unchanged. For several maps, or one with
  /// an exp: the D columns and rows a direct sum keeps live across the
  /// block leave the exp too few registers (measured on AVX2 and AVX-512:
  /// transport_cost 5-14% and kernel_mv 2-8% slower with the sum in their
  /// exp maps, kernel_lse 1-7% faster with it in its cheap scaling map).
  DistanceBlock stored(LinalgBuilder &lb) const {
    if (!direct())
      return *this;
    SmallVector<Value> ins;
    SmallVector<AffineMap> maps;
    addInputs(lb, ins, maps, /*inPlace=*/false);
    Value r2Block = lb.map(ins, maps, init(lb),
                           [&](ImplicitLocOpBuilder &ib, ValueRange args) {
                             return r2(ib, args.take_front(ins.size()));
                           });
    return DistanceBlock{r2Block, Value(), Value(), {}, {}, P, Q};
  }
};

/// The direct DistanceBlock between the rows of a [P, D] and the columns
/// of bT [D, Q] (static blocks).
inline DistanceBlock directDistances(LinalgBuilder &lb, Value a, Value bT) {
  ImplicitLocOpBuilder &b = lb.builder();
  auto aType = cast<RankedTensorType>(a.getType());
  auto bType = cast<RankedTensorType>(bT.getType());
  int64_t P = aType.getDimSize(0), D = aType.getDimSize(1),
          Q = bType.getDimSize(1);
  DistanceBlock dist{Value(), Value(), Value(), {}, {}, P, Q};
  for (int64_t d = 0; d < D; ++d)
    dist.aColumns.push_back(lb.slice(a, {b.getIndexAttr(0), b.getIndexAttr(d)},
                                     {b.getIndexAttr(P), b.getIndexAttr(1)},
                                     {P}));
  for (int64_t d = 0; d < D; ++d)
    dist.bRows.push_back(lb.slice(bT, {b.getIndexAttr(d), b.getIndexAttr(0)},
                                  {b.getIndexAttr(1), b.getIndexAttr(Q)}, {Q}));
  return dist;
}

/// The operands shared by kernel_lse and kernel_mv and the blocks built from
/// them. `batch` is null for unbatched ops: indices then have no batch entry.
struct KernelBlocks {
  LinalgBuilder &lb;
  Value x, y;
  bool batched;
  int64_t D, R, Cb; // Cb: columns of y per block (the target's)
  /// The centre [D] of this batch entry's points when r^2 is expanded, else
  /// null (see pointCentre).
  Value centre = Value();

  ImplicitLocOpBuilder &b() { return lb.builder(); }
  OpFoldResult c(int64_t v) { return b().getIndexAttr(v); }

  /// Offsets/sizes with the batch entry in front when batched.
  SmallVector<OpFoldResult> withBatch(Value batch, ArrayRef<OpFoldResult> rest,
                                      bool isSize) {
    SmallVector<OpFoldResult> result;
    if (batched)
      result.push_back(isSize ? c(1) : OpFoldResult(batch));
    result.append(rest.begin(), rest.end());
    return result;
  }

  /// Rows [r0, r0 + rows) of a [(Bt,) *, width] operand as a static
  /// [count, width] block; the rows past `rows` are `pad` when `ragged`.
  Value packRows(Value src, Value batch, Value r0, Value rows, int64_t count,
                 int64_t width, bool ragged, double pad) {
    if (!ragged)
      return lb.copyToNew(lb.slice(src, withBatch(batch, {r0, c(0)}, false),
                                   withBatch(batch, {c(count), c(width)}, true),
                                   {count, width}));
    Value dst = lb.filled({c(count), c(width)}, b().getF32Type(), pad);
    Value part = lb.slice(src, withBatch(batch, {r0, c(0)}, false),
                          withBatch(batch, {rows, c(width)}, true),
                          {ShapedType::kDynamic, width});
    return lb.insert(part, dst, {c(0), c(0)}, {rows, c(width)});
  }

  /// Entries [j0, j0 + count) of a [(Bt,) *] operand as a static [size]
  /// block, `pad` past `count` when `ragged`.
  Value packVector(Value src, Value batch, Value j0, Value count, int64_t size,
                   bool ragged, double pad) {
    if (!ragged)
      return lb.slice(src, withBatch(batch, {j0}, false),
                      withBatch(batch, {c(size)}, true), {size});
    Value dst = lb.filled({c(size)}, b().getF32Type(), pad);
    Value part =
        lb.slice(src, withBatch(batch, {j0}, false),
                 withBatch(batch, {count}, true), {ShapedType::kDynamic});
    return lb.insert(part, dst, {c(0)}, {count});
  }

  /// Columns [j0, j0 + count) of y^T as a static [D, Cb] block (zero points
  /// past `count` when `ragged`).
  Value packColumnsT(Value batch, Value j0, Value count, bool ragged) {
    if (!ragged)
      return lb.transpose(lb.slice(y, withBatch(batch, {j0, c(0)}, false),
                                   withBatch(batch, {c(Cb), c(D)}, true),
                                   {Cb, D}));
    Value dst = lb.filled({c(D), c(Cb)}, b().getF32Type(), 0.0);
    Value part = lb.transpose(lb.slice(y, withBatch(batch, {j0, c(0)}, false),
                                       withBatch(batch, {count, c(D)}, true),
                                       {ShapedType::kDynamic, D}));
    return lb.insert(part, dst, {c(0), c(0)}, {c(D), count});
  }

  /// Offsets and sizes of rows [r0, r0 + rows) of `out`, whose trailing
  /// dims (static sizes `trailing`) are whole.
  std::pair<SmallVector<OpFoldResult>, SmallVector<OpFoldResult>>
  rowsOf(Value batch, Value r0, OpFoldResult rows, ArrayRef<int64_t> trailing) {
    SmallVector<OpFoldResult> offsets = {r0}, sizes = {rows};
    for (int64_t t : trailing) {
      offsets.push_back(c(0));
      sizes.push_back(c(t));
    }
    return {withBatch(batch, offsets, false), withBatch(batch, sizes, true)};
  }

  /// Rows [r0, r0 + R) of `out` as a static [R, trailing...] slice, for a
  /// block that is not ragged: the block's results are computed straight
  /// into it.
  Value outRows(Value out, Value batch, Value r0, ArrayRef<int64_t> trailing) {
    auto [offsets, sizes] = rowsOf(batch, r0, c(R), trailing);
    SmallVector<int64_t> shape = {R};
    shape.append(trailing.begin(), trailing.end());
    return lb.slice(out, offsets, sizes, shape);
  }

  /// Inserts the result `block` of outRows back into `out`.
  Value insertRows(Value block, Value out, Value batch, Value r0,
                   ArrayRef<int64_t> trailing) {
    auto [offsets, sizes] = rowsOf(batch, r0, c(R), trailing);
    return lb.insert(block, out, offsets, sizes);
  }

  /// Copies the `rows` valid rows of the local block `block` [R, trailing...]
  /// of a ragged row block into rows [r0, r0 + rows) of `out`.
  Value writeRaggedRows(Value block, Value out, Value batch, Value r0,
                        OpFoldResult rows, ArrayRef<int64_t> trailing) {
    auto [offsets, sizes] = rowsOf(batch, r0, rows, trailing);
    SmallVector<int64_t> shape = {ShapedType::kDynamic};
    shape.append(trailing.begin(), trailing.end());
    SmallVector<OpFoldResult> blockOffsets(shape.size(), c(0));
    SmallVector<OpFoldResult> blockSizes = {rows};
    for (int64_t t : trailing)
      blockSizes.push_back(c(t));
    Value valid = lb.slice(block, blockOffsets, blockSizes, shape);
    Value dest = lb.slice(out, offsets, sizes, shape);
    Value copied = linalg::CopyOp::create(b(), valid, dest).getResult(0);
    return lb.insert(copied, out, offsets, sizes);
  }

  /// `block` ([P, D] for pointDim = 1, [D, P] for pointDim = 0) minus the
  /// centre when r^2 is expanded; unchanged when it is summed directly.
  Value centredIfExpanded(Value block, unsigned pointDim) {
    return centre ? centred(lb, block, centre, pointDim) : block;
  }

  /// The [P, Q] squared distances between the rows of `a` [P, D] and the
  /// columns of `bT` [D, Q] (both centred when expanded): direct when the
  /// points are not centred, else expanded. `aNorms` and
  /// `bNorms` are the squared norms of either side when already known
  /// (hoisted out of the column loop), else null.
  DistanceBlock distances(Value a, Value bT, Value aNorms, Value bNorms) {
    if (!centre)
      return directDistances(lb, a, bT);
    auto aType = cast<RankedTensorType>(a.getType());
    auto bType = cast<RankedTensorType>(bT.getType());
    int64_t P = aType.getDimSize(0), Q = bType.getDimSize(1);
    Value dots = lb.contract(
        a, bT, lb.filled({c(P), c(Q)}, b().getF32Type(), 0.0), Lhs::RowMajor);
    return {dots,
            aNorms ? aNorms : squaredNorms(lb, a, /*reducedDim=*/1),
            bNorms ? bNorms : squaredNorms(lb, bT, /*reducedDim=*/0),
            {},
            {},
            P,
            Q};
  }

  /// Rows [j0, j0 + count) of y as a static [Cb, D] block (zero points past
  /// `count` when `ragged`), centred when expanded.
  Value yRows(Value batch, Value j0, Value count, bool ragged) {
    if (ragged)
      return centredIfExpanded(
          packRows(y, batch, j0, count, Cb, D, /*ragged=*/true, 0.0), 1);
    return centredIfExpanded(lb.slice(y, withBatch(batch, {j0, c(0)}, false),
                                      withBatch(batch, {c(Cb), c(D)}, true),
                                      {Cb, D}),
                             1);
  }

  /// Rows [r0, r0 + rows) of x as a static [R, D] block (zero-padded when
  /// `ragged`), centred when expanded.
  Value xRows(Value batch, Value r0, Value rows, bool ragged) {
    return centredIfExpanded(
        packRows(x, batch, r0, rows, R, D, ragged, /*pad=*/0.0), 1);
  }

  /// x_blk^T [D, R] of xRows and, when expanded, the squared norms of its
  /// columns (else null).
  std::pair<Value, Value> xRowsTransposed(Value batch, Value r0, Value rows,
                                          bool ragged) {
    Value xT = lb.transpose(xRows(batch, r0, rows, ragged));
    return {xT, centre ? squaredNorms(lb, xT, /*reducedDim=*/0) : Value()};
  }
};

/// The centres of the points of every batch entry, [(Bt,) D], when the
/// squared distances for `kind` of D-dimensional points are expanded, else
/// null (on a GPU target they are expanded at every D where `kind` allows,
/// so that the cross term runs on the tensor cores).
inline Value pointCentres(ImplicitLocOpBuilder &b, Operation *op,
                          KernelKind kind, Value y, bool batched, int64_t D) {
  if (sumsSquaredDifferences(kind, D, lookupTargetDescription(op).isGpu()))
    return Value();
  LinalgBuilder lb(b);
  return meanPoint(lb, y, batched);
}

/// The centre [D] of batch entry `batch` from pointCentres (null stays
/// null).
inline Value centreOf(LinalgBuilder &lb, Value centres, Value batch,
                      int64_t D) {
  if (!centres || !batch)
    return centres;
  ImplicitLocOpBuilder &b = lb.builder();
  return lb.slice(centres, {batch, b.getIndexAttr(0)},
                  {b.getIndexAttr(1), b.getIndexAttr(D)}, {D});
}

/// The loops shared by both ops: per batch entry and per block of R rows,
/// an scf.for over the full blocks of Cb columns and one (of at most one
/// iteration) over the padded tail.
struct BlockLoops {
  BlockLoops(ImplicitLocOpBuilder &b, Value x, Value y, bool batched, int64_t R,
             int64_t Cb)
      : x(x), batched(batched), rowDim(batched ? 1 : 0), R(R), Cb(Cb) {
    int64_t staticN = cast<RankedTensorType>(x.getType()).getDimSize(rowDim);
    int64_t staticM = cast<RankedTensorType>(y.getType()).getDimSize(rowDim);
    raggedRows = ShapedType::isDynamic(staticN) || staticN % R != 0;
    hasTail = ShapedType::isDynamic(staticM) || staticM % Cb != 0;
    c0 = arith::ConstantIndexOp::create(b, 0);
    c1 = arith::ConstantIndexOp::create(b, 1);
    cR = arith::ConstantIndexOp::create(b, R);
    cCb = arith::ConstantIndexOp::create(b, Cb);
    N = tensor::DimOp::create(b, x, rowDim);
    M = tensor::DimOp::create(b, y, rowDim);
    fullEnd = arith::MulIOp::create(b, arith::DivUIOp::create(b, M, cCb), cCb);
  }

  /// rowStep(lb, batch, r0, rows, rowCount, outs) -> outs, for every block
  /// of rows; `rows` is the number of valid rows (a Value), `rowCount` the
  /// same as a constant when no block is ragged.
  using RowSteps = function_ref<SmallVector<Value>(
      LinalgBuilder &, Value, Value, Value, OpFoldResult, ValueRange)>;
  SmallVector<Value> overRows(ImplicitLocOpBuilder &b, ValueRange outs,
                              RowSteps rowStep) {
    auto rowLoop = [&](OpBuilder &nb, Location loc, Value batch,
                       ValueRange outB) -> SmallVector<Value> {
      auto loop = scf::ForOp::create(
          nb, loc, c0, N, cR, outB,
          [&](OpBuilder &rb, Location rl, Value r0, ValueRange acc) {
            ImplicitLocOpBuilder ib(rl, rb);
            LinalgBuilder ilb(ib);
            Value rows = cR;
            OpFoldResult rowCount = ib.getIndexAttr(R);
            if (raggedRows) {
              rows = arith::MinUIOp::create(ib, cR,
                                            arith::SubIOp::create(ib, N, r0));
              rowCount = rows;
            }
            scf::YieldOp::create(ib,
                                 rowStep(ilb, batch, r0, rows, rowCount, acc));
          });
      return SmallVector<Value>(loop.getResults());
    };
    if (!batched)
      return rowLoop(b, b.getLoc(), Value(), outs);
    Value batches = tensor::DimOp::create(b, x, 0);
    auto loop = scf::ForOp::create(
        b, c0, batches, c1, outs,
        [&](OpBuilder &nb, Location loc, Value batch, ValueRange acc) {
          scf::YieldOp::create(nb, loc, rowLoop(nb, loc, batch, acc));
        });
    return SmallVector<Value>(loop.getResults());
  }

  /// overRows with one output.
  using RowStep = function_ref<Value(LinalgBuilder &, Value, Value, Value,
                                     OpFoldResult, Value)>;
  Value overRows(ImplicitLocOpBuilder &b, Value out, RowStep rowStep) {
    return overRows(b, ValueRange{out},
                    [&](LinalgBuilder &lb, Value batch, Value r0, Value rows,
                        OpFoldResult rowCount,
                        ValueRange outs) -> SmallVector<Value> {
                      return {rowStep(lb, batch, r0, rows, rowCount, outs[0])};
                    })[0];
  }

  /// step(lb, j0, count, ragged, state) -> state over the column blocks:
  /// count = Cb for the full blocks, M - j0 (and ragged) for the tail.
  using ColumnStep = function_ref<SmallVector<Value>(LinalgBuilder &, Value,
                                                     Value, bool, ValueRange)>;
  SmallVector<Value> overColumns(ImplicitLocOpBuilder &b, ValueRange state,
                                 ColumnStep step) {
    auto full = scf::ForOp::create(
        b, c0, fullEnd, cCb, state,
        [&](OpBuilder &nb, Location loc, Value j0, ValueRange acc) {
          ImplicitLocOpBuilder ib(loc, nb);
          LinalgBuilder ilb(ib);
          scf::YieldOp::create(ib, step(ilb, j0, cCb, /*ragged=*/false, acc));
        });
    if (!hasTail)
      return full.getResults();
    // At most one iteration: the last M % Cb columns, padded.
    auto tail = scf::ForOp::create(
        b, fullEnd, M, cCb, full.getResults(),
        [&](OpBuilder &nb, Location loc, Value j0, ValueRange acc) {
          ImplicitLocOpBuilder ib(loc, nb);
          LinalgBuilder ilb(ib);
          Value count = arith::SubIOp::create(ib, M, j0);
          scf::YieldOp::create(ib, step(ilb, j0, count, /*ragged=*/true, acc));
        });
    return tail.getResults();
  }

  Value x;
  bool batched;
  unsigned rowDim;
  int64_t R, Cb;
  bool raggedRows, hasTail;
  Value c0, c1, cR, cCb, N, M, fullEnd;
};

/// The D of x (and y), static after getLinalgLoweringBlocker.
inline int64_t pointDim(Value x, bool batched) {
  return cast<RankedTensorType>(x.getType()).getDimSize(batched ? 2 : 1);
}

/// The columns C of the values v [(Bt,) M, C] of kernel_mv.
inline int64_t valueColumns(Value v, bool batched) {
  return cast<RankedTensorType>(v.getType()).getDimSize(batched ? 2 : 1);
}

/// The run-time coefficient of kernel_mv's kernel as a function of r^2,
/// from its bandwidth; null for the linear kernel, which has none.
inline Value kernelMvCoefficient(ImplicitLocOpBuilder &b, KernelKind kind,
                                 Value bandwidth) {
  if (!isDistanceBased(kind))
    return Value();
  Value h = tensor::ExtractOp::create(b, bandwidth, ValueRange{});
  return kernelCoefficient(b, b.getLoc(), kind, h);
}

/// One block of rows in BlockedKernel::overRows: rows [r0, r0 + rows) of
/// batch entry `batch`, `rowCount` of them as an OpFoldResult (a constant
/// when no block is ragged).
struct RowBlock {
  KernelBlocks blk;
  Value batch, r0, rows;
  OpFoldResult rowCount;
  bool ragged;

  LinalgBuilder &lb() { return blk.lb; }
  ImplicitLocOpBuilder &b() { return blk.b(); }

  /// The rows of x as a static [R, D] block (centred when expanded) and,
  /// when expanded, their squared norms (else null).
  std::pair<Value, Value> xRows() {
    Value xb = blk.xRows(batch, r0, rows, ragged);
    return {xb,
            blk.centre ? squaredNorms(lb(), xb, /*reducedDim=*/1) : Value()};
  }
  /// x_blk^T [D, R] and, when expanded, the squared norms of its columns.
  std::pair<Value, Value> xRowsTransposed() {
    return blk.xRowsTransposed(batch, r0, rows, ragged);
  }
  /// The block's rows of a [(Bt,) N, width] operand as a static [R, width]
  /// block, `pad` past the valid rows.
  Value rowsOf(Value src, int64_t width, double pad) {
    return blk.packRows(src, batch, r0, rows, blk.R, width, ragged, pad);
  }
  /// The block's entries of a [(Bt,) N] operand as a static [R] block.
  Value entriesOf(Value src, double pad) {
    return blk.packVector(src, batch, r0, rows, blk.R, ragged, pad);
  }
  /// A zero [R, trailing...] accumulator of the block's results: its rows
  /// of `out` when the block is whole (they are contiguous), else a local
  /// block whose valid rows `write` copies out once.
  Value zeros(Value out, ArrayRef<int64_t> trailing) {
    if (!ragged)
      return lb().fill(blk.outRows(out, batch, r0, trailing), 0.0);
    SmallVector<OpFoldResult> sizes = {blk.c(blk.R)};
    for (int64_t t : trailing)
      sizes.push_back(blk.c(t));
    return lb().filled(sizes, b().getF32Type(), 0.0);
  }
  /// Where a [R, trailing...] result of the block is computed: its rows of
  /// `out` when whole, else a local block.
  Value resultInit(Value out, ArrayRef<int64_t> trailing) {
    if (!ragged)
      return blk.outRows(out, batch, r0, trailing);
    SmallVector<OpFoldResult> sizes = {blk.c(blk.R)};
    for (int64_t t : trailing)
      sizes.push_back(blk.c(t));
    return lb().empty(sizes, b().getF32Type());
  }
  /// `out` with the block's result `block` [R, trailing...] in its rows.
  Value write(Value block, Value out, ArrayRef<int64_t> trailing) {
    if (!ragged)
      return blk.insertRows(block, out, batch, r0, trailing);
    return blk.writeRaggedRows(block, out, batch, r0, rowCount, trailing);
  }
};

/// One block of columns in BlockedKernel::overColumns: rows [j0, j0 +
/// count) of y, padded to Cb when `ragged`.
struct ColumnBlock {
  KernelBlocks blk;
  Value batch, j0, count;
  bool ragged;

  LinalgBuilder &lb() { return blk.lb; }
  ImplicitLocOpBuilder &b() { return blk.b(); }

  /// The rows of y as a static [Cb, D] block, centred when expanded.
  Value yRows() { return blk.yRows(batch, j0, count, ragged); }
  /// The block's rows of a [(Bt,) M, width] operand as a static [Cb, width]
  /// block, `pad` past `count`.
  Value rowsOf(Value src, int64_t width, double pad) {
    return blk.packRows(src, batch, j0, count, blk.Cb, width, ragged, pad);
  }
  /// The block's entries of a [(Bt,) M] operand as a static [Cb] block.
  Value entriesOf(Value src, double pad) {
    return blk.packVector(src, batch, j0, count, blk.Cb, ragged, pad);
  }
};

/// What every blocked kernel lowering sets up from its points x and y: the
/// block sizes, the centres of y when r^2 is expanded, and the loops over
/// batch entries, row blocks and column blocks.
struct BlockedKernel {
  /// `centred`: whether r^2 may be expanded about the centres (not for the
  /// linear kernel, which forms no distances).
  BlockedKernel(ImplicitLocOpBuilder &b, Operation *op, KernelKind kind,
                Value x, Value y, bool batched, bool centred = true)
      : x(x), y(y), batched(batched), D(pointDim(x, batched)),
        R(rowBlockSize(x, batched ? 1 : 0)),
        Cb(lookupTargetDescription(op).kernelColumnBlock),
        centres(centred ? pointCentres(b, op, kind, y, batched, D) : Value()),
        loops(b, x, y, batched, R, Cb) {}

  /// step(row, outs) -> outs for every block of rows.
  using RowStep = function_ref<SmallVector<Value>(RowBlock &, ValueRange)>;
  SmallVector<Value> overRows(ImplicitLocOpBuilder &b, ValueRange outs,
                              RowStep step) {
    return loops.overRows(
        b, outs,
        [&](LinalgBuilder &lb, Value batch, Value r0, Value rows,
            OpFoldResult rowCount, ValueRange acc) -> SmallVector<Value> {
          Value centre = centreOf(lb, centres, batch, D);
          RowBlock row{KernelBlocks{lb, x, y, batched, D, R, Cb, centre},
                       batch,
                       r0,
                       rows,
                       rowCount,
                       loops.raggedRows};
          return step(row, acc);
        });
  }

  /// step(column, state) -> state over the column blocks of `row`.
  using ColumnStep =
      function_ref<SmallVector<Value>(ColumnBlock &, ValueRange)>;
  SmallVector<Value> overColumns(RowBlock &row, ValueRange state,
                                 ColumnStep step) {
    return loops.overColumns(
        row.b(), state,
        [&](LinalgBuilder &lb, Value j0, Value count, bool ragged,
            ValueRange acc) -> SmallVector<Value> {
          ColumnBlock column{
              KernelBlocks{lb, x, y, batched, D, R, Cb, row.blk.centre},
              row.batch, j0, count, ragged};
          return step(column, acc);
        });
  }

  Value x, y;
  bool batched;
  int64_t D, R, Cb;
  Value centres;
  BlockLoops loops;
};

/// A pattern lowering a kernel op that getLinalgLoweringBlocker accepts
/// with `lower`, which returns the values that replace its results.
template <typename OpTy,
          SmallVector<Value> (*lower)(OpTy, ImplicitLocOpBuilder &)>
struct BlockedKernelPattern : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    if (std::optional<std::string> blocker = getLinalgLoweringBlocker(op))
      return rewriter.notifyMatchFailure(op, *blocker);
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    rewriter.replaceOp(op, lower(op, b));
    return success();
  }
};

/// acc[p] = combine(block entry, acc[p]) over the dim `reducedDim` of a
/// static 2-d `block`, p running over its other dim.
inline Value
reduceBlock(LinalgBuilder &lb, Value block, Value acc, unsigned reducedDim,
            function_ref<Value(OpBuilder &, Location, Value, Value)> combine) {
  using utils::IteratorType;
  SmallVector<IteratorType> iterators(2, IteratorType::parallel);
  iterators[reducedDim] = IteratorType::reduction;
  return linalg::GenericOp::create(
             lb.builder(), TypeRange{acc.getType()}, ValueRange{block},
             ValueRange{acc},
             ArrayRef<AffineMap>{lb.dims(2, {0, 1}),
                                 lb.dims(2, {1 - reducedDim})},
             iterators,
             [&](OpBuilder &nb, Location loc, ValueRange args) {
               linalg::YieldOp::create(nb, loc,
                                       combine(nb, loc, args[0], args[1]));
             })
      .getResult(0);
}

} // namespace mlir::mixer

#endif // MIXER_LIB_CONVERSION_MIXERTOLINALG_KERNELBLOCKS_H
