//===- StreamStores.cpp - outputs written past the caches -----------------===//
//
// A function that writes an output buffer larger than a core's L2 and never
// reads it (a scan's o, a grouped GEMM's result) gains nothing from caching
// its lines: each written line is first read from memory (the write
// allocates it), then evicts a line the loops still use (a state, a weight
// panel), and is written back later anyway. Non-temporal stores write whole
// lines to memory directly. This pass turns every vector write of whole
// cache lines into such a buffer (a 1-D row or a 2-D register tile,
// vector.transfer_write after bufferization and the copies' lowering) by
// code that computes into nontemporal vector.stores, behind a run-time
// check that the first row starts on a cache line: the instructions fault
// on addresses not aligned to their vector, and a caller's buffer may be
// aligned to less (the original write stays as the other branch). Code
// that only moves rows (a dispatch's gather) keeps its stores: its output,
// left in the last-level cache, is what the next op reads first.
//
// Non-temporal stores are weakly ordered: an llvm.fence (seq_cst) follows
// the ops that hold them, once per parallel iteration (or in the function's
// body), so that they are visible before the iteration ends and the
// function returns. Write prefetches of such buffers (mixer-prefetch-rows)
// run only where the row they fetch is not streamed.
//
//===----------------------------------------------------------------------===//

#include "mixer/Codegen/CPU/Passes.h"
#include "mixer/Target/TargetDescription.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::mixer {
#define GEN_PASS_DEF_MIXERSTREAMSTORESPASS
#include "mixer/Codegen/CPU/Passes.h.inc"
} // namespace mlir::mixer

using namespace mlir;

/// The buffer `value` is a view of (through subviews, casts, reshapes).
static Value viewRoot(Value value) {
  return memref::skipViewLikeOps(cast<MemrefValue>(value));
}

/// Whether the function only writes `buffer`: every use, through views, is
/// a vector write into it, a prefetch or a query of its layout. A buffer
/// the function also reads (an accumulator over cache blocks, an in-place
/// update) wants its lines cached.
static bool isWrittenOnly(Value buffer) {
  SmallVector<Value> views = {buffer};
  while (!views.empty()) {
    Value view = views.pop_back_val();
    for (OpOperand &use : view.getUses()) {
      Operation *user = use.getOwner();
      if (auto viewOp = dyn_cast<ViewLikeOpInterface>(user);
          viewOp && viewOp.getViewSource() == view) {
        views.append(user->result_begin(), user->result_end());
        continue;
      }
      if (auto write = dyn_cast<vector::TransferWriteOp>(user);
          write && write.getBase() == view)
        continue;
      if (auto store = dyn_cast<vector::StoreOp>(user);
          store && store.getBase() == view)
        continue;
      if (isa<memref::PrefetchOp, memref::DimOp,
              memref::ExtractAlignedPointerAsIndexOp>(user))
        continue;
      return false;
    }
  }
  return true;
}

/// The buffer arguments that `func` only writes, of at least `minBytes` or
/// of a dynamic shape (mapped to true: their size is tested at run time).
static llvm::SmallDenseMap<Value, bool> writtenOnlyOutputs(func::FuncOp func,
                                                           int64_t minBytes) {
  llvm::SmallDenseMap<Value, bool> outputs;
  if (func.isExternal())
    return outputs;
  for (BlockArgument arg : func.getArguments()) {
    auto type = dyn_cast<MemRefType>(arg.getType());
    if (!type || !type.getElementType().isIntOrFloat() || !isWrittenOnly(arg))
      continue;
    if (!type.hasStaticShape())
      outputs[arg] = true;
    else if (type.getNumElements() * type.getElementTypeBitWidth() / 8 >=
             minBytes)
      outputs[arg] = false;
  }
  return outputs;
}

/// Whether the dynamic-shape buffer `arg` has at least `minBytes`, computed
/// where the function starts.
static Value sizeTest(RewriterBase &rewriter, BlockArgument arg,
                      int64_t minBytes) {
  OpBuilder::InsertionGuard guard(rewriter);
  auto type = cast<MemRefType>(arg.getType());
  Location loc = arg.getLoc();
  rewriter.setInsertionPointToStart(arg.getOwner());
  Value bytes = arith::ConstantIndexOp::create(
      rewriter, loc, type.getElementTypeBitWidth() / 8);
  for (int64_t d = 0; d < type.getRank(); ++d)
    bytes = arith::MulIOp::create(rewriter, loc, bytes,
                                  memref::DimOp::create(rewriter, loc, arg, d));
  return arith::CmpIOp::create(
      rewriter, loc, arith::CmpIPredicate::uge, bytes,
      arith::ConstantIndexOp::create(rewriter, loc, minBytes));
}

/// Whether `write` writes whole cache lines of `lineBytes` into rows of unit
/// stride: an unmasked, in-bounds 1-D row or 2-D tile (the vector's dims
/// the buffer's last ones) whose rows are whole lines, a tile's rows a
/// static whole number of lines apart. Then, with the first row on a line,
/// every row starts on one.
static bool writesWholeLines(vector::TransferWriteOp write, int64_t lineBytes) {
  VectorType vectorType = write.getVectorType();
  auto memrefType = dyn_cast<MemRefType>(write.getBase().getType());
  if (!memrefType || write.getMask() || vectorType.getRank() > 2 ||
      vectorType.isScalable() || !write.getPermutationMap().isMinorIdentity() ||
      llvm::any_of(write.getInBoundsValues(), [](bool b) { return !b; }))
    return false;
  int64_t elementBytes = vectorType.getElementTypeBitWidth() / 8;
  if (elementBytes == 0 ||
      vectorType.getShape().back() * elementBytes % lineBytes != 0)
    return false;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(memrefType.getStridesAndOffset(strides, offset)) ||
      strides.back() != 1)
    return false;
  if (vectorType.getRank() == 1)
    return true;
  int64_t rowStride = strides[strides.size() - 2];
  return !ShapedType::isDynamic(rowStride) &&
         rowStride * elementBytes % lineBytes == 0;
}

/// Whether the element of `base` at `indices` starts a cache line: its
/// address, the aligned pointer plus the indices' offset in the buffer's
/// layout, is a multiple of `lineBytes`.
static Value startsLine(RewriterBase &rewriter, Location loc, Value base,
                        ValueRange indices, int64_t lineBytes) {
  auto constant = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(rewriter, loc, v);
  };
  auto metadata = memref::ExtractStridedMetadataOp::create(rewriter, loc, base);
  Value element = metadata.getOffset();
  for (auto [index, stride] : llvm::zip_equal(indices, metadata.getStrides()))
    element = arith::AddIOp::create(
        rewriter, loc, element,
        arith::MulIOp::create(rewriter, loc, index, stride));
  int64_t elementBytes =
      cast<MemRefType>(base.getType()).getElementTypeBitWidth() / 8;
  Value address = arith::AddIOp::create(
      rewriter, loc,
      memref::ExtractAlignedPointerAsIndexOp::create(rewriter, loc, base),
      arith::MulIOp::create(rewriter, loc, element, constant(elementBytes)));
  return arith::CmpIOp::create(
      rewriter, loc, arith::CmpIPredicate::eq,
      arith::RemUIOp::create(rewriter, loc, address, constant(lineBytes)),
      constant(0));
}

/// Replaces `write` by `if (its first row starts a line [and the buffer is
/// large]) { nontemporal row stores } else { write }`; `large` is the run-time
/// size test of a dynamic shape, or null.
static scf::IfOp streamWrite(RewriterBase &rewriter,
                             vector::TransferWriteOp write, Value large,
                             int64_t lineBytes) {
  Location loc = write.getLoc();
  rewriter.setInsertionPoint(write);
  Value base = write.getBase();
  VectorType vectorType = write.getVectorType();
  Value stream = startsLine(rewriter, loc, base, write.getIndices(), lineBytes);
  if (large)
    stream = arith::AndIOp::create(rewriter, loc, stream, large);
  auto branch = scf::IfOp::create(rewriter, loc, stream,
                                  /*withElseRegion=*/true);
  rewriter.setInsertionPointToStart(branch.thenBlock());
  int64_t rows = vectorType.getRank() == 2 ? vectorType.getDimSize(0) : 1;
  for (int64_t r = 0; r < rows; ++r) {
    SmallVector<Value> indices(write.getIndices());
    Value row = write.getValueToStore();
    if (vectorType.getRank() == 2)
      row = vector::ExtractOp::create(rewriter, loc, row, r);
    if (r > 0) {
      Value &rowIndex = indices[indices.size() - 2];
      rowIndex = arith::AddIOp::create(
          rewriter, loc, rowIndex,
          arith::ConstantIndexOp::create(rewriter, loc, r));
    }
    vector::StoreOp::create(rewriter, loc, row, base, indices,
                            /*nontemporal=*/true, llvm::Align(lineBytes));
  }
  rewriter.moveOpBefore(write, branch.elseBlock(), branch.elseBlock()->begin());
  return branch;
}

/// Keeps the write prefetch `prefetch` of a streamed buffer only where the
/// line it fetches is not streamed: where it does not start a line, or the
/// buffer (of run-time size test `large`, or null) is small; the rows there
/// are written through the caches. Prefetching a streamed line would only
/// read it from memory.
static void prefetchOnlyCachedLines(RewriterBase &rewriter,
                                    memref::PrefetchOp prefetch, Value large,
                                    int64_t lineBytes) {
  Location loc = prefetch.getLoc();
  rewriter.setInsertionPoint(prefetch);
  Value streamed = startsLine(rewriter, loc, prefetch.getMemref(),
                              prefetch.getIndices(), lineBytes);
  if (large)
    streamed = arith::AndIOp::create(rewriter, loc, streamed, large);
  Value cached = arith::XOrIOp::create(
      rewriter, loc, streamed,
      arith::ConstantIntOp::create(rewriter, loc, /*value=*/1, /*width=*/1));
  auto branch = scf::IfOp::create(rewriter, loc, cached,
                                  /*withElseRegion=*/false);
  rewriter.moveOpBefore(prefetch, branch.thenBlock(),
                        branch.thenBlock()->begin());
}

/// The ancestor of `op` directly in a parallel iteration's body or in the
/// function's body.
static Operation *iterationLevelAncestor(Operation *op) {
  while (!isa<scf::ForallOp, func::FuncOp>(op->getParentOp()))
    op = op->getParentOp();
  return op;
}

/// Whether the body of `op` (a parallel loop or the function) computes on
/// vectors of floats (FMAs, products, sums), rather than only moving data:
/// then its output's lines, cached, would compete with the data its loops
/// reuse. Code that only moves rows (a dispatch's gather) is bound by
/// memory either way, and its output, left in the last-level cache, is what
/// the next op reads first.
static bool computesOnVectors(Operation *op) {
  WalkResult found = op->walk([](Operation *inner) {
    if (!isa<vector::FMAOp, vector::OuterProductOp, vector::ContractionOp,
             arith::MulFOp, arith::AddFOp, arith::SubFOp, arith::DivFOp>(inner))
      return WalkResult::advance();
    auto type = dyn_cast<VectorType>(inner->getResult(0).getType());
    return type && isa<FloatType>(type.getElementType())
               ? WalkResult::interrupt()
               : WalkResult::advance();
  });
  return found.wasInterrupted();
}

namespace {
struct MixerStreamStoresPass
    : public mixer::impl::MixerStreamStoresPassBase<MixerStreamStoresPass> {
  using Base::Base;
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    int64_t threshold = minBytes;
    if (threshold <= 0) {
      FailureOr<mixer::TargetDescription> target =
          mixer::getTargetDescription(func);
      if (failed(target))
        return signalPassFailure();
      threshold = target->l2CacheBytes;
    }
    llvm::SmallDenseMap<Value, bool> outputs =
        writtenOnlyOutputs(func, threshold);
    if (outputs.empty())
      return;

    SmallVector<vector::TransferWriteOp> writes;
    llvm::SmallDenseMap<Operation *, bool> computes;
    func.walk([&](vector::TransferWriteOp write) {
      if (!outputs.contains(viewRoot(write.getBase())) ||
          !writesWholeLines(write, lineBytes))
        return;
      Operation *body = iterationLevelAncestor(write)->getParentOp();
      auto [it, inserted] = computes.try_emplace(body, false);
      if (inserted)
        it->second = computesOnVectors(body);
      if (it->second)
        writes.push_back(write);
    });
    IRRewriter rewriter(&getContext());
    // Each streamed buffer with its run-time size test (null: static).
    llvm::SmallDenseMap<Value, Value> streamed;
    llvm::SetVector<Operation *> fenced;
    for (vector::TransferWriteOp write : writes) {
      Value root = viewRoot(write.getBase());
      auto [it, inserted] = streamed.try_emplace(root, Value());
      if (inserted && outputs.lookup(root))
        it->second = sizeTest(rewriter, cast<BlockArgument>(root), threshold);
      scf::IfOp branch = streamWrite(rewriter, write, it->second, lineBytes);
      fenced.insert(iterationLevelAncestor(branch));
    }
    for (Operation *op : fenced) {
      rewriter.setInsertionPointAfter(op);
      LLVM::FenceOp::create(rewriter, op->getLoc(),
                            LLVM::AtomicOrdering::seq_cst);
    }

    SmallVector<memref::PrefetchOp> prefetches;
    func.walk([&](memref::PrefetchOp prefetch) {
      if (prefetch.getIsWrite() &&
          streamed.contains(viewRoot(prefetch.getMemref())))
        prefetches.push_back(prefetch);
    });
    for (memref::PrefetchOp prefetch : prefetches)
      prefetchOnlyCachedLines(rewriter, prefetch,
                              streamed.lookup(viewRoot(prefetch.getMemref())),
                              lineBytes);
  }
};
} // namespace
