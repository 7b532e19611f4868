//===- SelectiveScanBackwardToLinalg.cpp - selective scan gradients -------===//
//
// mixer.selective_scan_backward in two passes of the chunked-scan driver,
// per (batch, block of Db channels inside one group), the state transposed
// as in the forward (hT [N, Db]):
//
//   1. Unless the op has them, the chunk-boundary states: the forward's
//      hooks without output, recording hT before every chunk of T tokens
//      ([B, D/Db, L/T + 1, N, Db]).
//   2. The reverse scan, carrying dhT (the cotangent of the state), and the
//      per-block sums dA^T [N, Db], dD_skip and ddelta_bias [Db]. Per chunk
//      (a full chunk of T tokens, or one token of the tail, whose state is
//      recomputed from the tail's boundary state):
//        E[i] = exp(At dt_i), Hs[0] = boundary state,
//        Hs[i + 1] = E[i] Hs[i] + b_i du_i^T   (the forward's state update)
//        gy = dy * silu(z); dz = dy * (c^T h + D_skip u) * silu'(z)
//        for i = T-1 .. 0:  dH[i] = dhT += c_i gy_i^T;  dhT *= E[i];
//                           Sb[i] = b_i^T dH[i]
//        then, over the chunk at once: dc, db (sums over the block's
//        channels, added to the group's rows), du, ddelta, dA^T, dD_skip,
//        ddelta_bias.
//      One exp per state element and token; every sum vectorized along the
//      channels (see sumOf and sumOfProductsOverLastDim).
//
// Memory: the boundary states (when recomputed) and, per block, chunk
// temporaries of [T + 1, N, Db] (Hs, E, dH, products); never a per-token
// state of the whole sequence.
//
//===----------------------------------------------------------------------===//

#include "ChunkedScanLowering.h"
#include "GradientSums.h"
#include "MixerToLinalgPatterns.h"
#include "SelectiveScanLowering.h"

#include "mixer/Dialect/Mixer/IR/MixerOps.h"
#include "mixer/Target/TargetDescription.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::mixer;

namespace {

/// Where the gradients lie among the driver's outs: the stepped ones
/// first (du, ddelta, db, dc, dz), then those finalize writes.
enum Grad {
  GradU,
  GradDelta,
  GradB,
  GradC,
  GradZ,
  GradA,
  GradDSkip,
  GradBias,
  GradInit,
  NumGrads
};

class SelectiveScanBackward final : public ChunkedScanHooks {
public:
  SelectiveScanBackward(SelectiveScanBackwardOp op,
                        const SelectiveScanOperands &ops, int64_t D, int64_t G,
                        int64_t N, int64_t T, int64_t Db, int64_t lanes)
      : fwd(ops, D, G, N, T, Db, /*withOutput=*/false), dy(op.getDy()),
        dFinal(op.getDFinalState()), saved(op.getChunkStates()), T(T), N(N),
        Db(Db), lanes(lanes) {}

  /// The position of each present gradient among the driver's outs, and the
  /// op's `outs` in that order.
  SmallVector<int> driverPosition; // indexed by Grad, -1 when absent
  unsigned stepped = 0;

  void configure(ImplicitLocOpBuilder &b, Value length, Value boundaries) {
    Value cT = arith::ConstantIndexOp::create(b, T);
    tailStart = arith::MulIOp::create(
        b, arith::DivUIOp::create(b, length, cT), cT);
    tailRow = arith::DivUIOp::create(b, length, cT);
    recomputed = boundaries;
  }

  void init(LinalgBuilder &lb, ScanCarry &carry) override {
    fwd.setHead(batch, head);
    fwd.startBlock(lb);
    ImplicitLocOpBuilder &b = lb.builder();
    OpFoldResult db = b.getIndexAttr(Db), n = b.getIndexAttr(N);
    // dhT, dA^T, then dD_skip and ddelta_bias as present.
    carry.states.push_back(initialState(lb, dFinal, fwd.stateSlice(b)));
    carry.states.push_back(lb.filled({n, db}, b.getF32Type(), 0.0));
    if (fwd.dSkip)
      carry.states.push_back(lb.filled({db}, b.getF32Type(), 0.0));
    if (fwd.bias)
      carry.states.push_back(lb.filled({db}, b.getF32Type(), 0.0));
  }

  void chunkStep(LinalgBuilder &lb, unsigned, Value t0,
                 ScanCarry &carry) override {
    Value row = arith::DivUIOp::create(lb.builder(), t0,
                                       arith::ConstantIndexOp::create(
                                           lb.builder(), T));
    backwardBlock(lb, T, t0, boundaryState(lb, row), carry);
  }

  void tokenStep(LinalgBuilder &lb, unsigned, Value t,
                 ScanCarry &carry) override {
    // The state before tail token t, recomputed from the tail's start.
    ImplicitLocOpBuilder &b = lb.builder();
    OpFoldResult one = b.getIndexAttr(1), zero = b.getIndexAttr(0),
                 db = b.getIndexAttr(Db);
    Value start = lb.copyToNew(boundaryState(lb, tailRow));
    SmallVector<Value> loop = lb.loop(
        tailStart, t, arith::ConstantIndexOp::create(b, 1), ValueRange{start},
        [&](LinalgBuilder &ilb, Value s, ValueRange acc) -> SmallVector<Value> {
          Value dt = fwd.stepSizes(ilb, fwd.rows(ilb, fwd.ops.delta, 1, s));
          Value du = fwd.product(ilb, dt, fwd.rows(ilb, fwd.ops.u, 1, s));
          auto row = [&](Value x) {
            return ilb.slice(x, {zero, zero}, {one, db}, {Db});
          };
          Value bi = ilb.slice(fwd.groupRows(ilb, fwd.ops.b, 1, s),
                               {zero, zero}, {one, b.getIndexAttr(N)}, {N});
          return {fwd.advance(ilb, acc[0], row(dt), row(du), bi)};
        });
    backwardBlock(lb, 1, t, loop[0], carry);
  }

  void finalize(LinalgBuilder &lb, ArrayRef<Value> states,
                MutableArrayRef<Value> outs) override {
    ImplicitLocOpBuilder &b = lb.builder();
    StateSlice slice = fwd.stateSlice(b);
    outs[driverPosition[GradA]] =
        insertFinalState(lb, states[1], outs[driverPosition[GradA]], slice);
    if (driverPosition[GradInit] >= 0)
      outs[driverPosition[GradInit]] = insertFinalState(
          lb, states[0], outs[driverPosition[GradInit]], slice);
    unsigned next = 2;
    for (Grad g : {GradDSkip, GradBias}) {
      if (driverPosition[g] < 0)
        continue;
      Value &out = outs[driverPosition[g]];
      out = lb.insert(states[next++], out, {fwd.getBatch(), fwd.d0},
                      {b.getIndexAttr(1), b.getIndexAttr(Db)});
    }
  }

private:
  /// The state hT [N, Db] before token row * T.
  Value boundaryState(LinalgBuilder &lb, Value row) {
    ImplicitLocOpBuilder &b = lb.builder();
    OpFoldResult one = b.getIndexAttr(1), zero = b.getIndexAttr(0);
    OpFoldResult db = b.getIndexAttr(Db), n = b.getIndexAttr(N);
    if (saved)
      return lb.transpose(lb.slice(saved, {batch, fwd.d0, row, zero},
                                   {one, db, one, n}, {Db, N}));
    return boundaryStateAt(lb, recomputed, batch, head, row, N, Db);
  }

  void backwardBlock(LinalgBuilder &lb, int64_t T, Value t0, Value hStart,
                     ScanCarry &carry);

  SelectiveScanHooks fwd;
  Value dy, dFinal, saved, recomputed;
  int64_t T, N, Db, lanes;
  Value tailStart, tailRow;
};

} // namespace

void SelectiveScanBackward::backwardBlock(LinalgBuilder &lb, int64_t T,
                                          Value t0, Value hStart,
                                          ScanCarry &carry) {
  ImplicitLocOpBuilder &b = lb.builder();
  Type f32 = b.getF32Type();
  OpFoldResult one = b.getIndexAttr(1), zero = b.getIndexAttr(0);
  OpFoldResult t = b.getIndexAttr(T), t1 = b.getIndexAttr(T + 1),
               db = b.getIndexAttr(Db), n = b.getIndexAttr(N);
  const SelectiveScanOperands &ops = fwd.ops;
  Value U = fwd.rows(lb, ops.u, T, t0);
  Value X = fwd.rows(lb, ops.delta, T, t0);
  Value DT = fwd.stepSizes(lb, X);
  // The blocks run from the last: the passes that first read this block's
  // rows (delta, u; dy and z below) prefetch the previous block's, as the
  // forward's prefetch the next block's.
  if (DT != X)
    LinalgBuilder::prefetchingRowsAhead(DT, -T);
  Value DU = LinalgBuilder::prefetchingRowsAhead(fwd.product(lb, DT, U), -T);
  Value Bc = fwd.groupRows(lb, ops.b, T, t0);
  Value Cc = fwd.groupRows(lb, ops.c, T, t0);
  Value Z = ops.z ? fwd.rows(lb, ops.z, T, t0) : Value();
  Value c0 = arith::ConstantIndexOp::create(b, 0);
  Value c1 = arith::ConstantIndexOp::create(b, 1);
  Value cT = arith::ConstantIndexOp::create(b, T);
  auto tokenRow = [&](LinalgBuilder &ilb, Value x, Value i, int64_t width) {
    return ilb.slice(x, {i, zero}, {one, b.getIndexAttr(width)}, {width});
  };

  // The chunk's states: Hs[0] = h before the chunk, Hs[i + 1] = h_{t0 + i},
  // and the decays E[i] = exp(At dt_i) (the reverse recurrence, ddelta and
  // dA reuse them); with z, also the output before the gate,
  // P[i] = c_i^T h_{t0 + i}.
  Value Hs = lb.insert(hStart, lb.empty({t1, n, db}, f32), {zero, zero, zero},
                       {one, n, db});
  SmallVector<Value> init = {lb.copyToNew(hStart), Hs,
                             lb.empty({t, n, db}, f32)};
  if (Z)
    init.push_back(lb.filled({t, db}, f32, 0.0));
  SmallVector<Value> states = lb.loop(
      c0, cT, c1, init,
      [&](LinalgBuilder &ilb, Value i, ValueRange acc) -> SmallVector<Value> {
        ImplicitLocOpBuilder &ib = ilb.builder();
        Value decay = fwd.decays(
            ilb, tokenRow(ilb, DT, i, Db),
            ilb.slice(acc[2], {i, zero, zero}, {one, n, db}, {N, Db}));
        Value h = fwd.advanceDecayed(ilb, acc[0], decay,
                                     tokenRow(ilb, DU, i, Db),
                                     tokenRow(ilb, Bc, i, N));
        Value next = arith::AddIOp::create(ib, i, c1);
        SmallVector<Value> yield = {
            h, ilb.insert(h, acc[1], {next, zero, zero}, {one, n, db}),
            ilb.insert(decay, acc[2], {i, zero, zero}, {one, n, db})};
        if (Z) {
          Value ci = ilb.slice(Cc, {i, zero}, {one, n}, {1, N});
          Value row = ilb.slice(acc[3], {i, zero}, {one, db}, {1, Db});
          row = ilb.contract(ci, h, row, Lhs::RowMajor);
          yield.push_back(ilb.insert(row, acc[3], {i, zero}, {one, db}));
        }
        return yield;
      });
  Hs = states[1];
  Value E = states[2];
  Value Hprev = lb.slice(Hs, {zero, zero, zero}, {t, n, db}, {T, N, Db});
  Value Hcur = lb.slice(Hs, {one, zero, zero}, {t, n, db}, {T, N, Db});

  AffineMap td = lb.dims(2, {0, 1}), dOnly = lb.dims(2, {1});
  // gy = dy * silu(z) and dz = dy * (P + D_skip u) * silu'(z); without dy
  // both are zero.
  Value GY;
  if (dy) {
    Value DY = fwd.rows(lb, dy, T, t0);
    GY = DY;
    if (Z) {
      GY = lb.map({DY, Z}, {td, td}, lb.empty({t, db}, f32),
                  [](ImplicitLocOpBuilder &ib, ValueRange args) {
                    Value silu = arith::MulFOp::create(
                        ib, args[1], buildSigmoid(ib, args[1]));
                    return arith::MulFOp::create(ib, args[0], silu).getResult();
                  });
      LinalgBuilder::prefetchingRowsAhead(GY, -T);
      SmallVector<Value> in = {DY, Z, U};
      SmallVector<AffineMap> maps = {td, td, td};
      if (fwd.dSkip) {
        in.push_back(fwd.dSkip);
        maps.push_back(dOnly);
      }
      bool skip = static_cast<bool>(fwd.dSkip);
      // P is overwritten with dz.
      Value dZ = lb.map(
          in, maps, states[3], [&](ImplicitLocOpBuilder &ib, ValueRange args) {
            Value pre = args.back();
            if (skip)
              pre = arith::AddFOp::create(
                  ib, pre, arith::MulFOp::create(ib, args[3], args[2]));
            Value z = args[1], s = buildSigmoid(ib, z);
            Value oneF = arith::ConstantOp::create(ib, ib.getF32FloatAttr(1.0));
            // silu'(z) = s (1 + z (1 - s)).
            Value dSilu = arith::MulFOp::create(
                ib, s,
                arith::AddFOp::create(
                    ib, oneF,
                    arith::MulFOp::create(
                        ib, z, arith::SubFOp::create(ib, oneF, s))));
            return arith::MulFOp::create(
                       ib, args[0], arith::MulFOp::create(ib, pre, dSilu))
                .getResult();
          });
      Value &out = carry.outs[driverPosition[GradZ]];
      out = lb.insert(dZ, out, {fwd.getBatch(), t0, fwd.d0}, {one, t, db});
    }
  } else {
    GY = lb.filled({t, db}, f32, 0.0);
    if (Z) {
      Value &out = carry.outs[driverPosition[GradZ]];
      out = lb.insert(lb.filled({t, db}, f32, 0.0), out,
                      {fwd.getBatch(), t0, fwd.d0}, {one, t, db});
    }
  }

  // The reverse recurrence: dH[i] = dhT + c_i gy_i^T is the cotangent of
  // h_{t0 + i}; the token before gets exp(At dt_i) dH[i]. Each token also
  // reads Sb[i] = b_i^T dH[i] [Db] (a [1, N] x [N, Db] contraction, as the
  // forward's output), which du and ddelta share.
  Value dH = lb.empty({t, n, db}, f32);
  SmallVector<Value> reverse = lb.loop(
      c0, cT, c1, ValueRange{carry.states[0], dH, lb.filled({t, db}, f32, 0.0)},
      [&](LinalgBuilder &ilb, Value j, ValueRange acc) -> SmallVector<Value> {
        ImplicitLocOpBuilder &ib = ilb.builder();
        Value i = arith::SubIOp::create(
            ib, arith::ConstantIndexOp::create(ib, T - 1), j);
        Value cur = ilb.map(
            {tokenRow(ilb, Cc, i, N), tokenRow(ilb, GY, i, Db)},
            {ilb.dims(2, {0}), ilb.dims(2, {1})}, acc[0],
            [](ImplicitLocOpBuilder &hb, ValueRange args) {
              return arith::AddFOp::create(
                         hb, args[2], arith::MulFOp::create(hb, args[0], args[1]))
                  .getResult();
            });
        Value all = ilb.insert(cur, acc[1], {i, zero, zero}, {one, n, db});
        Value bi = ilb.slice(Bc, {i, zero}, {one, n}, {1, N});
        Value row = ilb.slice(acc[2], {i, zero}, {one, db}, {1, Db});
        row = ilb.contract(bi, cur, row, Lhs::RowMajor);
        Value sb = ilb.insert(row, acc[2], {i, zero}, {one, db});
        Value prev = ilb.map(
            {ilb.slice(E, {i, zero, zero}, {one, n, db}, {N, Db})},
            {ilb.dims(2, {0, 1})}, cur,
            [](ImplicitLocOpBuilder &hb, ValueRange args) {
              return arith::MulFOp::create(hb, args[0], args[1]).getResult();
            });
        return {prev, all, sb};
      });
  carry.states[0] = reverse[0];
  dH = reverse[1];
  Value Sb = reverse[2];

  // Iteration dims (i, n, d) for the sums over channels or state indices.
  AffineMap ind = lb.dims(3, {0, 1, 2}), iD = lb.dims(3, {0, 2}),
            nD = lb.dims(3, {1, 2});
  // dc[i, n] += sum_d h_i gy_i and db[i, n] += sum_d dH_i dt_i u_i, added
  // to the group's rows (other blocks of the group add theirs).
  auto addToGroup = [&](Grad g, Value perState, Value perChannel) {
    Value &out = carry.outs[driverPosition[g]];
    SmallVector<OpFoldResult> offsets = {fwd.getBatch(), t0, fwd.group, zero};
    SmallVector<OpFoldResult> sizes = {one, t, one, n};
    Value rows = lb.slice(out, offsets, sizes, {T, N});
    rows = sumOfProductsOverLastDim(lb, perState, perChannel, rows, lanes);
    out = lb.insert(rows, out, offsets, sizes);
  };
  addToGroup(GradC, Hcur, GY);
  addToGroup(GradB, dH, DU);

  // du = dt Sb + D_skip gy.
  SmallVector<Value> duIn = {Sb, DT};
  SmallVector<AffineMap> duMaps = {td, td};
  if (fwd.dSkip) {
    duIn.append({GY, fwd.dSkip});
    duMaps.append({td, dOnly});
  }
  Value dU = lb.map(duIn, duMaps, lb.empty({t, db}, f32),
                    [](ImplicitLocOpBuilder &ib, ValueRange args) {
                      Value du = arith::MulFOp::create(ib, args[0], args[1]);
                      if (args.size() == 5)
                        du = arith::AddFOp::create(
                            ib, du, arith::MulFOp::create(ib, args[2], args[3]));
                      return du;
                    });
  // With W = dH E h_prev: ddt = u Sb + sum_n A W, ddelta = ddt
  // softplus'(x), and dA^T[n, d] += sum_i dt W. One pass forms A W and
  // dt W (the latter in place of E, no longer needed); the sums then add
  // one input each, which vectorizes along the channels.
  auto terms = linalg::GenericOp::create(
      b, TypeRange{E.getType(), E.getType()},
      ValueRange{dH, Hprev, fwd.At, DT},
      ValueRange{lb.empty({t, n, db}, f32), E},
      ArrayRef<AffineMap>{ind, ind, nD, iD, ind, ind},
      SmallVector<utils::IteratorType>(3, utils::IteratorType::parallel),
      [](OpBuilder &nb, Location loc, ValueRange args) {
        ImplicitLocOpBuilder ib(loc, nb);
        Value w = productOf(ib, {args[0], args[1], args[5]});
        linalg::YieldOp::create(
            ib, ValueRange{arith::MulFOp::create(ib, args[2], w),
                           arith::MulFOp::create(ib, args[3], w)});
      });
  Value dDT = sumOf(lb, terms.getResult(0), ind, fwd.product(lb, Sb, U), iD,
                    {1});
  carry.states[1] = sumOf(lb, terms.getResult(1), ind, carry.states[1], nD,
                          {0});
  if (ops.softplus) {
    SmallVector<Value> in = {X};
    SmallVector<AffineMap> maps = {td};
    if (fwd.bias) {
      in.push_back(fwd.bias);
      maps.push_back(dOnly);
    }
    bool withBias = static_cast<bool>(fwd.bias);
    dDT = lb.map(in, maps, dDT, [&](ImplicitLocOpBuilder &ib, ValueRange args) {
      Value x = args[0];
      if (withBias)
        x = arith::AddFOp::create(ib, x, args[1]);
      // softplus'(x) = sigmoid(x); 1 above the limit, where softplus is x.
      Value limit =
          arith::ConstantOp::create(ib, ib.getF32FloatAttr(kSoftplusLimit));
      Value big =
          arith::CmpFOp::create(ib, arith::CmpFPredicate::OGT, x, limit);
      Value slope = arith::SelectOp::create(
          ib, big, arith::ConstantOp::create(ib, ib.getF32FloatAttr(1.0)),
          buildSigmoid(ib, x));
      return arith::MulFOp::create(ib, args.back(), slope).getResult();
    });
  }
  // The sums over the chunk's tokens run over the outer dim: each token's
  // row of channels adds to a vector of partial sums.
  unsigned next = 2;
  if (fwd.dSkip) {
    carry.states[next] = lb.sumInto({GY, U}, {td, td}, carry.states[next],
                                    dOnly, {0}, productOf);
    ++next;
  }
  if (fwd.bias)
    carry.states[next] = sumOf(lb, dDT, td, carry.states[next], dOnly, {0});
  for (auto [g, value] : {std::pair{GradU, dU}, std::pair{GradDelta, dDT}}) {
    Value &out = carry.outs[driverPosition[g]];
    out = lb.insert(value, out, {fwd.getBatch(), t0, fwd.d0}, {one, t, db});
  }
}

static SmallVector<Value> lowerSelectiveScanBackward(SelectiveScanBackwardOp op,
                                                     ImplicitLocOpBuilder &b) {
  int64_t D = dimSize(op.getU(), 2);
  int64_t G = dimSize(op.getB(), 2), N = dimSize(op.getB(), 3);
  int64_t T = op.getChunkSize();
  const TargetDescription &target = lookupTargetDescription(op);
  int64_t Db = target.selectiveScanChannelBlock(D / G);
  SelectiveScanOperands ops{
      op.getU(),    op.getDelta(),        op.getA(), op.getB(),
      op.getC(),    op.getDSkip(),        op.getZ(), op.getDeltaBias(),
      op.getInit(), op.getDeltaSoftplus()};
  SelectiveScanBackward scan(op, ops, D, G, N, T, Db, target.vectorWidth);

  // The op's gradients in Grad order (absent ones skipped), and their
  // order for the driver: the stepped ones first.
  SmallVector<Grad> present = {GradU, GradDelta, GradA, GradB, GradC};
  if (op.getDSkip())
    present.push_back(GradDSkip);
  if (op.getZ())
    present.push_back(GradZ);
  if (op.getDeltaBias())
    present.push_back(GradBias);
  if (op.getInit())
    present.push_back(GradInit);
  LinalgBuilder lb(b);
  SmallVector<Value> driverOuts;
  SmallVector<unsigned> opIndex; // driver position -> op result
  scan.driverPosition.assign(NumGrads, -1);
  for (bool stepped : {true, false})
    for (auto [index, g] : llvm::enumerate(present)) {
      if ((g <= GradZ) != stepped)
        continue;
      scan.driverPosition[g] = driverOuts.size();
      Value out = op.getOuts()[index];
      // db and dc accumulate over the channel blocks of a group.
      if (g == GradB || g == GradC)
        out = lb.fill(out, 0.0);
      driverOuts.push_back(out);
      opIndex.push_back(index);
    }

  ChunkedScanSpec spec = backwardScanSpec(b, op.getU(), D / Db, T);
  Value boundaries;
  if (!op.getChunkStates()) {
    SelectiveScanHooks forward(ops, D, G, N, T, Db, /*withOutput=*/false);
    boundaries = forwardBoundaryStates(b, spec, forward, {N, Db});
  }
  scan.configure(b, spec.length, boundaries);
  spec.reverse = true;
  spec.steppedOuts = llvm::count_if(present, [](Grad g) { return g <= GradZ; });
  SmallVector<Value> results = buildChunkedScan(b, spec, driverOuts, scan);
  SmallVector<Value> replacements(results.size());
  for (auto [position, index] : llvm::enumerate(opIndex))
    replacements[index] = results[position];
  return replacements;
}

void mlir::mixer::populateSelectiveScanBackwardToLinalgPatterns(
    RewritePatternSet &patterns) {
  patterns.add(replaceUnlessBlocked<lowerSelectiveScanBackward>);
}
