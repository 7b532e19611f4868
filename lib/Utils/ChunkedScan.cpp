//===- ChunkedScan.cpp - the chunk-then-tail driver of the scans ----------===//

#include "mixer/Utils/ChunkedScan.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "llvm/Support/ErrorHandling.h"

using namespace mlir;
using namespace mlir::mixer;

ChunkedScanHooks::~ChunkedScanHooks() = default;

void ChunkedScanHooks::tailChunkStep(LinalgBuilder &, unsigned, Value, Value,
                                     ScanCarry &) {
  llvm_unreachable("paddedTail needs a tailChunkStep");
}

/// The sizes of `slice` in its [..., rows, cols] tensor.
static SmallVector<OpFoldResult> sliceSizes(OpBuilder &b,
                                            const StateSlice &slice) {
  SmallVector<OpFoldResult> sizes(slice.offsets.size() - 2, b.getIndexAttr(1));
  sizes.push_back(b.getIndexAttr(slice.rows));
  sizes.push_back(b.getIndexAttr(slice.cols));
  return sizes;
}

Value mlir::mixer::initialState(LinalgBuilder &lb, Value init,
                                const StateSlice &slice) {
  ImplicitLocOpBuilder &b = lb.builder();
  int64_t rows = slice.rows, cols = slice.cols;
  if (!init) {
    if (slice.transposed)
      std::swap(rows, cols);
    return lb.filled({b.getIndexAttr(rows), b.getIndexAttr(cols)},
                     b.getF32Type(), 0.0);
  }
  Value own = lb.slice(init, slice.offsets, sliceSizes(b, slice), {rows, cols});
  // A transpose writes a fresh tensor already.
  return slice.transposed ? lb.transpose(own) : lb.copyToNew(own);
}

Value mlir::mixer::insertFinalState(LinalgBuilder &lb, Value state, Value dest,
                                    const StateSlice &slice) {
  return lb.insert(slice.transposed ? lb.transpose(state) : state, dest,
                   slice.offsets, sliceSizes(lb.builder(), slice));
}

/// The offsets and sizes of the tokens [t, t + count) at (batch, index) in
/// a time-major operand of type `type` ([B, L, H, D] or [B, L, H]).
static std::pair<SmallVector<OpFoldResult>, SmallVector<OpFoldResult>>
tokenBox(OpBuilder &b, Type type, Value batch, Value t, Value index,
         int64_t count) {
  OpFoldResult one = b.getIndexAttr(1);
  SmallVector<OpFoldResult> offsets = {batch, t, index},
                            sizes = {one, b.getIndexAttr(count), one};
  auto shaped = cast<RankedTensorType>(type);
  if (shaped.getRank() == 4) {
    offsets.push_back(b.getIndexAttr(0));
    sizes.push_back(b.getIndexAttr(shaped.getDimSize(3)));
  }
  return {offsets, sizes};
}

Value ChunkedScanHooks::tokensOf(LinalgBuilder &lb, Value x, Value t,
                                 int64_t count, ArrayRef<int64_t> shape,
                                 Value index) const {
  auto [offsets, sizes] = tokenBox(lb.builder(), x.getType(), batch, t,
                                   index ? index : head, count);
  return lb.slice(x, offsets, sizes, shape);
}

Value ChunkedScanHooks::insertTokens(LinalgBuilder &lb, Value tile, Value dest,
                                     Value t, int64_t count,
                                     Value index) const {
  auto [offsets, sizes] = tokenBox(lb.builder(), dest.getType(), batch, t,
                                   index ? index : head, count);
  return lb.insert(tile, dest, offsets, sizes);
}

Value ChunkedScanHooks::copyChunkTokens(LinalgBuilder &lb, Value x, Value t,
                                        int64_t count,
                                        ArrayRef<int64_t> shape) const {
  return LinalgBuilder::prefetchingRowsAhead(
      lb.copyToNew(tokensOf(lb, x, t, count, shape)), nextChunkRows(count));
}

Value ChunkedScanHooks::writeChunkTokens(LinalgBuilder &lb, Value tile,
                                         Value dest, Value t,
                                         int64_t count) const {
  SmallVector<int64_t> shape(cast<ShapedType>(tile.getType()).getShape());
  Value written = LinalgBuilder::prefetchingRowsAhead(
      lb.copy(tile, tokensOf(lb, dest, t, count, shape)), nextChunkRows(count));
  return insertTokens(lb, written, dest, t, count);
}

void OneStateScanHooks::init(LinalgBuilder &lb, ScanCarry &carry) {
  startHead(lb);
  carry.states.push_back(
      initialState(lb, stateSource, stateSlice(lb.builder())));
}

void OneStateScanHooks::finalize(LinalgBuilder &lb, ArrayRef<Value> states,
                                 MutableArrayRef<Value> outs) {
  if (finalStateOut < outs.size())
    outs[finalStateOut] = insertFinalState(lb, states[0], outs[finalStateOut],
                                           stateSlice(lb.builder()));
}

Value mlir::mixer::boundaryStateAt(LinalgBuilder &lb, Value states,
                                   Value batch, Value head, Value row,
                                   int64_t rows, int64_t cols) {
  OpBuilder &b = lb.builder();
  OpFoldResult one = b.getIndexAttr(1), zero = b.getIndexAttr(0);
  return lb.slice(states, {batch, head, row, zero, zero},
                  {one, one, one, b.getIndexAttr(rows), b.getIndexAttr(cols)},
                  {rows, cols});
}

namespace {

/// One segment's split, computed once before the loops.
struct SegmentBounds {
  Value begin, end;
  Value fullChunks; // 0 when the sequence is at most the recurrent threshold
  Value tailStart;  // begin + fullChunks * chunkSize
};

/// Body of a loop: updates the carried values in place.
using LoopBody = function_ref<void(LinalgBuilder &lb, Value iv,
                                   MutableArrayRef<Value> carried)>;

/// The driver's state while it builds one scan.
class ChunkedScanBuilder {
public:
  ChunkedScanBuilder(ImplicitLocOpBuilder &b, const ChunkedScanSpec &spec,
                     ChunkedScanHooks &hooks)
      : b(b), spec(spec), hooks(hooks) {}

  SmallVector<Value> build(ValueRange outs);

private:
  void computeBounds();
  SmallVector<Value> emptyBoundaries();
  /// The scan of one (batch, head): returns its outs and boundary tensors.
  SmallVector<Value> buildHead(LinalgBuilder &lb, Value batch, Value head,
                               ValueRange outs);
  void buildSegment(LinalgBuilder &lb, unsigned segment, ScanCarry &carry,
                    MutableArrayRef<Value> boundaries);
  void buildChunks(LinalgBuilder &lb, unsigned segment, ScanCarry &carry,
                   MutableArrayRef<Value> boundaries);
  void buildTail(LinalgBuilder &lb, unsigned segment, ScanCarry &carry);
  /// The scan of every head of one batch entry with the heads inside the
  /// chunk loop (ChunkedScanSpec::headsInner): returns its outs.
  SmallVector<Value> buildHeadsInner(LinalgBuilder &lb, Value batch,
                                     ValueRange outs);
  /// Runs `step` on head `headIv`'s states, sliced from and put back into
  /// the stacked `carry.states`.
  void onHead(LinalgBuilder &lb, Value headIv, ScanCarry &carry,
              function_ref<void(ScanCarry &)> step);
  /// Inserts the states into row `row` of the boundary tensors.
  void record(LinalgBuilder &lb, Value row, ArrayRef<Value> states,
              MutableArrayRef<Value> boundaries);

  ImplicitLocOpBuilder &b;
  const ChunkedScanSpec &spec;
  ChunkedScanHooks &hooks;
  SmallVector<SegmentBounds> segments;
  Value batch, head; // of the (batch, head) being built
};

} // namespace

/// x + y, without an op when y is the constant 0.
static Value addIndex(ImplicitLocOpBuilder &b, Value x, Value y) {
  if (isConstantIntValue(y, 0))
    return x;
  return arith::AddIOp::create(b, x, y);
}

/// x - y, without an op when y is the constant 0.
static Value subIndex(ImplicitLocOpBuilder &b, Value x, Value y) {
  if (isConstantIntValue(y, 0))
    return x;
  return arith::SubIOp::create(b, x, y);
}

/// Builds `for iv in [lower, upper) step 1` carrying `init`.
static SmallVector<Value> buildLoop(ImplicitLocOpBuilder &b, Value lower,
                                    Value upper, ValueRange init,
                                    LoopBody body) {
  Value c1 = arith::ConstantIndexOp::create(b, 1);
  auto loop = scf::ForOp::create(
      b, lower, upper, c1, init,
      [&](OpBuilder &nb, Location loc, Value iv, ValueRange acc) {
        ImplicitLocOpBuilder ib(loc, nb);
        LinalgBuilder lb(ib);
        SmallVector<Value> carried(acc);
        body(lb, iv, carried);
        scf::YieldOp::create(ib, carried);
      });
  return llvm::to_vector_of<Value>(loop.getResults());
}

/// The flat list of a carry (outs, then states) and more values.
static SmallVector<Value> flatten(const ScanCarry &carry,
                                  ArrayRef<Value> more = {}) {
  SmallVector<Value> flat(carry.outs);
  llvm::append_range(flat, carry.states);
  llvm::append_range(flat, more);
  return flat;
}

/// The inverse of flatten: `flat` back into `carry`, the rest into `more`.
static void unflatten(ArrayRef<Value> flat, ScanCarry &carry,
                      MutableArrayRef<Value> more = {}) {
  size_t numOuts = carry.outs.size(), numStates = carry.states.size();
  llvm::copy(flat.take_front(numOuts), carry.outs.begin());
  llvm::copy(flat.slice(numOuts, numStates), carry.states.begin());
  llvm::copy(flat.drop_front(numOuts + numStates), more.begin());
}

void ChunkedScanBuilder::computeBounds() {
  Value c0 = arith::ConstantIndexOp::create(b, 0);
  Value cQ = arith::ConstantIndexOp::create(b, spec.chunkSize);
  // Full chunks use the chunked form; the tails, and whole sequences of at
  // most recurrentThreshold tokens, the recurrence.
  Value chunked;
  if (spec.recurrentThreshold)
    chunked = arith::CmpIOp::create(
        b, arith::CmpIPredicate::ugt, spec.length,
        arith::ConstantIndexOp::create(b, *spec.recurrentThreshold));
  SmallVector<ScanSegment> ranges = spec.segments;
  if (ranges.empty())
    ranges.push_back({c0, spec.length});
  for (const ScanSegment &range : ranges) {
    Value fullChunks =
        arith::DivUIOp::create(b, subIndex(b, range.end, range.begin), cQ);
    if (chunked)
      fullChunks = arith::SelectOp::create(b, chunked, fullChunks, c0);
    Value tailStart =
        addIndex(b, range.begin, arith::MulIOp::create(b, fullChunks, cQ));
    segments.push_back({range.begin, range.end, fullChunks, tailStart});
  }
}

SmallVector<Value> ChunkedScanBuilder::emptyBoundaries() {
  SmallVector<Value> boundaries;
  if (spec.boundaryStates.empty())
    return boundaries;
  assert(segments.size() == 1 && "boundary states need a single segment");
  if (!spec.boundaryDests.empty()) {
    assert(spec.boundaryDests.size() == spec.boundaryStates.size() &&
           "one destination per boundary state");
    return SmallVector<Value>(spec.boundaryDests);
  }
  Value rows = arith::AddIOp::create(b, segments[0].fullChunks,
                                     arith::ConstantIndexOp::create(b, 1));
  for (RankedTensorType type : spec.boundaryStates) {
    SmallVector<OpFoldResult> sizes = {getAsOpFoldResult(spec.batches),
                                       getAsOpFoldResult(spec.heads), rows};
    for (int64_t size : type.getShape())
      sizes.push_back(b.getIndexAttr(size));
    boundaries.push_back(
        tensor::EmptyOp::create(b, sizes, type.getElementType()));
  }
  return boundaries;
}

void ChunkedScanBuilder::record(LinalgBuilder &lb, Value row,
                                ArrayRef<Value> states,
                                MutableArrayRef<Value> boundaries) {
  if (boundaries.empty())
    return;
  for (auto [state, boundary] : llvm::zip_equal(states, boundaries)) {
    auto type = cast<RankedTensorType>(state.getType());
    SmallVector<OpFoldResult> offsets = {batch, head, row};
    SmallVector<OpFoldResult> sizes(3, lb.builder().getIndexAttr(1));
    for (int64_t size : type.getShape()) {
      offsets.push_back(lb.builder().getIndexAttr(0));
      sizes.push_back(lb.builder().getIndexAttr(size));
    }
    boundary = lb.insert(state, boundary, offsets, sizes);
  }
}

void ChunkedScanBuilder::buildChunks(LinalgBuilder &lb, unsigned segment,
                                     ScanCarry &carry,
                                     MutableArrayRef<Value> boundaries) {
  ImplicitLocOpBuilder &hb = lb.builder();
  const SegmentBounds &bounds = segments[segment];
  Value c0 = arith::ConstantIndexOp::create(hb, 0);
  // In reverse, iteration i runs chunk fullChunks - 1 - i.
  Value lastChunk;
  if (spec.reverse)
    lastChunk = arith::SubIOp::create(hb, bounds.fullChunks,
                                      arith::ConstantIndexOp::create(hb, 1));
  SmallVector<Value> results = buildLoop(
      hb, c0, bounds.fullChunks, flatten(carry, boundaries),
      [&](LinalgBuilder &clb, Value iv, MutableArrayRef<Value> carried) {
        ImplicitLocOpBuilder &cb = clb.builder();
        ScanCarry step = carry;
        SmallVector<Value> marks(boundaries);
        unflatten(carried, step, marks);
        Value chunk =
            spec.reverse ? arith::SubIOp::create(cb, lastChunk, iv) : iv;
        Value t0 = addIndex(
            cb, bounds.begin,
            arith::MulIOp::create(
                cb, chunk, arith::ConstantIndexOp::create(cb, spec.chunkSize)));
        // Row c is the state at token c * chunkSize: before the chunk
        // forward, after it in reverse.
        if (!spec.reverse)
          record(clb, chunk, step.states, marks);
        hooks.chunkStep(clb, segment, t0, step);
        if (spec.reverse)
          record(clb, chunk, step.states, marks);
        llvm::copy(flatten(step, marks), carried.begin());
      });
  unflatten(results, carry, boundaries);
}

void ChunkedScanBuilder::buildTail(LinalgBuilder &lb, unsigned segment,
                                   ScanCarry &carry) {
  ImplicitLocOpBuilder &hb = lb.builder();
  const SegmentBounds &bounds = segments[segment];
  if (spec.paddedTail) {
    assert(!spec.recurrentThreshold && "a padded tail is shorter than a chunk");
    Value count = subIndex(hb, bounds.end, bounds.tailStart);
    Value nonEmpty = arith::CmpIOp::create(
        hb, arith::CmpIPredicate::ugt, count,
        arith::ConstantIndexOp::create(hb, 0));
    SmallVector<Value> flat = flatten(carry);
    auto ifOp = scf::IfOp::create(hb, ValueRange(flat).getTypes(), nonEmpty,
                                  /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard guard(hb);
      hb.setInsertionPointToStart(&ifOp.getThenRegion().front());
      LinalgBuilder tlb(hb);
      ScanCarry step = carry;
      hooks.tailChunkStep(tlb, segment, bounds.tailStart, count, step);
      scf::YieldOp::create(hb, flatten(step));
      hb.setInsertionPointToStart(&ifOp.getElseRegion().front());
      scf::YieldOp::create(hb, flat);
    }
    unflatten(llvm::to_vector_of<Value>(ifOp.getResults()), carry);
    return;
  }
  Value lower = bounds.tailStart, upper = bounds.end, lastToken;
  // In reverse, iteration i runs token end - 1 - i.
  if (spec.reverse) {
    lower = arith::ConstantIndexOp::create(hb, 0);
    upper = arith::SubIOp::create(hb, bounds.end, bounds.tailStart);
    lastToken = arith::SubIOp::create(hb, bounds.end,
                                      arith::ConstantIndexOp::create(hb, 1));
  }
  SmallVector<Value> results = buildLoop(
      hb, lower, upper, flatten(carry),
      [&](LinalgBuilder &tlb, Value iv, MutableArrayRef<Value> carried) {
        ScanCarry step = carry;
        unflatten(carried, step);
        Value t = spec.reverse
                      ? arith::SubIOp::create(tlb.builder(), lastToken, iv)
                      : iv;
        hooks.tokenStep(tlb, segment, t, step);
        llvm::copy(flatten(step), carried.begin());
      });
  unflatten(results, carry);
}

void ChunkedScanBuilder::buildSegment(LinalgBuilder &lb, unsigned segment,
                                      ScanCarry &carry,
                                      MutableArrayRef<Value> boundaries) {
  Value tailRow = segments[segment].fullChunks;
  if (!spec.reverse) {
    buildChunks(lb, segment, carry, boundaries);
    record(lb, tailRow, carry.states, boundaries);
    buildTail(lb, segment, carry);
    return;
  }
  buildTail(lb, segment, carry);
  record(lb, tailRow, carry.states, boundaries);
  buildChunks(lb, segment, carry, boundaries);
}

SmallVector<Value> ChunkedScanBuilder::buildHead(LinalgBuilder &lb,
                                                 Value batchIv, Value headIv,
                                                 ValueRange outs) {
  batch = batchIv;
  head = headIv;
  unsigned numOuts = spec.steppedOuts;
  ScanCarry carry;
  carry.outs.assign(outs.begin(), outs.begin() + numOuts);
  hooks.setHead(batch, head);
  hooks.init(lb, carry);
  SmallVector<Value> rest(outs.drop_front(numOuts));
  MutableArrayRef<Value> finalOuts(rest);
  MutableArrayRef<Value> boundaries =
      finalOuts.drop_front(rest.size() - spec.boundaryStates.size());
  for (unsigned i = 0, e = segments.size(); i < e; ++i)
    buildSegment(lb, spec.reverse ? e - 1 - i : i, carry, boundaries);

  SmallVector<Value> allOuts(carry.outs);
  llvm::append_range(allOuts, finalOuts.drop_back(spec.boundaryStates.size()));
  hooks.finalize(lb, carry.states, allOuts);
  llvm::append_range(allOuts, boundaries);
  return allOuts;
}

void ChunkedScanBuilder::onHead(LinalgBuilder &lb, Value headIv,
                                ScanCarry &carry,
                                function_ref<void(ScanCarry &)> step) {
  OpBuilder &b = lb.builder();
  head = headIv;
  hooks.setHead(batch, head);
  ScanCarry own;
  own.outs = carry.outs;
  SmallVector<SmallVector<OpFoldResult>> offsets, sizes;
  for (Value stacked : carry.states) {
    ArrayRef<int64_t> shape =
        cast<RankedTensorType>(stacked.getType()).getShape().drop_front();
    offsets.push_back({head});
    sizes.push_back({b.getIndexAttr(1)});
    for (int64_t size : shape) {
      offsets.back().push_back(b.getIndexAttr(0));
      sizes.back().push_back(b.getIndexAttr(size));
    }
    own.states.push_back(lb.slice(stacked, offsets.back(), sizes.back(),
                                  llvm::to_vector(shape)));
  }
  step(own);
  carry.outs = own.outs;
  for (auto [i, state] : llvm::enumerate(own.states))
    carry.states[i] = lb.insert(state, carry.states[i], offsets[i], sizes[i]);
}

SmallVector<Value> ChunkedScanBuilder::buildHeadsInner(LinalgBuilder &lb,
                                                       Value batchIv,
                                                       ValueRange outs) {
  ImplicitLocOpBuilder &hb = lb.builder();
  batch = batchIv;
  int64_t heads = *getConstantIntValue(spec.heads);
  unsigned numOuts = spec.steppedOuts;
  ScanCarry carry;
  carry.outs.assign(outs.begin(), outs.begin() + numOuts);
  // Every head's initial states, stacked.
  SmallVector<SmallVector<Value>> initial;
  for (int64_t h = 0; h < heads; ++h) {
    head = arith::ConstantIndexOp::create(hb, h);
    hooks.setHead(batch, head);
    ScanCarry own;
    own.outs = carry.outs;
    hooks.init(lb, own);
    carry.outs = own.outs;
    initial.push_back(own.states);
  }
  for (unsigned i = 0, e = initial.front().size(); i < e; ++i) {
    auto type = cast<RankedTensorType>(initial.front()[i].getType());
    SmallVector<int64_t> shape = {heads};
    llvm::append_range(shape, type.getShape());
    Value stacked = tensor::EmptyOp::create(hb, shape, type.getElementType());
    SmallVector<OpFoldResult> offsets(shape.size(), hb.getIndexAttr(0));
    SmallVector<OpFoldResult> sizes = {hb.getIndexAttr(1)};
    for (int64_t size : type.getShape())
      sizes.push_back(hb.getIndexAttr(size));
    for (int64_t h = 0; h < heads; ++h) {
      offsets[0] = hb.getIndexAttr(h);
      stacked = lb.insert(initial[h][i], stacked, offsets, sizes);
    }
    carry.states.push_back(stacked);
  }

  const SegmentBounds &bounds = segments[0];
  Value c0 = arith::ConstantIndexOp::create(hb, 0);
  auto overHeads = [&](LinalgBuilder &olb, ScanCarry &outer,
                       function_ref<void(LinalgBuilder &, ScanCarry &)> step) {
    SmallVector<Value> results = buildLoop(
        olb.builder(), c0, spec.heads, flatten(outer),
        [&](LinalgBuilder &hlb, Value headIv, MutableArrayRef<Value> carried) {
          ScanCarry inner = outer;
          unflatten(carried, inner);
          onHead(hlb, headIv, inner,
                 [&](ScanCarry &own) { step(hlb, own); });
          llvm::copy(flatten(inner), carried.begin());
        });
    unflatten(results, outer);
  };
  SmallVector<Value> results = buildLoop(
      hb, c0, bounds.fullChunks, flatten(carry),
      [&](LinalgBuilder &clb, Value iv, MutableArrayRef<Value> carried) {
        ImplicitLocOpBuilder &cb = clb.builder();
        ScanCarry step = carry;
        unflatten(carried, step);
        Value t0 = addIndex(
            cb, bounds.begin,
            arith::MulIOp::create(
                cb, iv, arith::ConstantIndexOp::create(cb, spec.chunkSize)));
        hooks.chunkShared(clb, 0, t0);
        overHeads(clb, step, [&](LinalgBuilder &slb, ScanCarry &own) {
          hooks.chunkStep(slb, 0, t0, own);
        });
        llvm::copy(flatten(step), carried.begin());
      });
  unflatten(results, carry);
  overHeads(lb, carry, [&](LinalgBuilder &tlb, ScanCarry &own) {
    buildTail(tlb, 0, own);
  });

  SmallVector<Value> allOuts(carry.outs);
  llvm::append_range(allOuts, outs.drop_front(numOuts));
  for (int64_t h = 0; h < heads; ++h)
    onHead(lb, arith::ConstantIndexOp::create(hb, h), carry,
           [&](ScanCarry &own) { hooks.finalize(lb, own.states, allOuts); });
  return allOuts;
}

SmallVector<Value> ChunkedScanBuilder::build(ValueRange outs) {
  computeBounds();
  if (spec.headsInner) {
    assert(getConstantIntValue(spec.heads) && !spec.reverse &&
           !spec.paddedTail && segments.size() == 1 &&
           spec.boundaryStates.empty() &&
           "heads inside the chunk loop: constant heads, one forward segment");
    Value c0 = arith::ConstantIndexOp::create(b, 0);
    Value c1 = arith::ConstantIndexOp::create(b, 1);
    auto batchLoop = scf::ForOp::create(
        b, c0, spec.batches, c1, outs,
        [&](OpBuilder &nb, Location bl, Value batchIv, ValueRange outsB) {
          ImplicitLocOpBuilder ib(bl, nb);
          LinalgBuilder lb(ib);
          scf::YieldOp::create(ib, buildHeadsInner(lb, batchIv, outsB));
        });
    return llvm::to_vector_of<Value>(batchLoop.getResults());
  }
  SmallVector<Value> carried(outs);
  llvm::append_range(carried, emptyBoundaries());
  Value c0 = arith::ConstantIndexOp::create(b, 0);
  Value c1 = arith::ConstantIndexOp::create(b, 1);
  auto batchLoop = scf::ForOp::create(
      b, c0, spec.batches, c1, carried,
      [&](OpBuilder &bb, Location bl, Value batchIv, ValueRange outsB) {
        auto headLoop = scf::ForOp::create(
            bb, bl, c0, spec.heads, c1, outsB,
            [&](OpBuilder &nb, Location hl, Value headIv, ValueRange outsH) {
              ImplicitLocOpBuilder ib(hl, nb);
              LinalgBuilder lb(ib);
              scf::YieldOp::create(ib, buildHead(lb, batchIv, headIv, outsH));
            });
        scf::YieldOp::create(bb, bl, headLoop.getResults());
      });
  return llvm::to_vector_of<Value>(batchLoop.getResults());
}

SmallVector<Value> mlir::mixer::buildChunkedScan(ImplicitLocOpBuilder &b,
                                                 const ChunkedScanSpec &spec,
                                                 ValueRange outs,
                                                 ChunkedScanHooks &hooks) {
  return ChunkedScanBuilder(b, spec, hooks).build(outs);
}
