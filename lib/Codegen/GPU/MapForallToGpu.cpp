//===- MapForallToGpu.cpp - bufferized foralls to thread-mapped launches --===//
//
// One gpu.launch per independent unit of work: a block per iteration of an
// outermost scf.forall, its linalg ops spread over the block's threads, its
// temporaries in shared memory while they fit.
//
//===----------------------------------------------------------------------===//

#include "mixer/Codegen/GPU/Passes.h"
#include "mixer/Codegen/GPU/Transforms.h"
#include "mixer/Target/TargetDescription.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::mixer {
#define GEN_PASS_DEF_MIXERMAPFORALLTOGPUPASS
#include "mixer/Codegen/GPU/Passes.h.inc"
} // namespace mlir::mixer

using namespace mlir;
using namespace mlir::mixer;

namespace {
/// How a piece of host code becomes a kernel.
enum class KernelKind {
  /// An outermost scf.forall: one block per iteration.
  Blocks,
  /// A linalg op outside any forall: its elements over all threads.
  Grid,
  /// Other host code that writes memory: one thread.
  Serial
};

struct KernelRoot {
  KernelKind kind;
  SmallVector<Operation *> ops;
};
} // namespace

/// Whether `op` or an op nested in it may write memory (allocations do
/// not count).
static bool mayWriteMemory(Operation *op) {
  WalkResult result = op->walk([](Operation *nested) {
    if (auto effects = dyn_cast<MemoryEffectOpInterface>(nested)) {
      if (effects.hasEffect<MemoryEffects::Write>())
        return WalkResult::interrupt();
      return WalkResult::advance();
    }
    if (nested->hasTrait<OpTrait::HasRecursiveMemoryEffects>() ||
        isMemoryEffectFree(nested))
      return WalkResult::advance();
    return WalkResult::interrupt();
  });
  return result.wasInterrupted();
}

static bool containsForall(Operation *op) {
  return op->walk([](scf::ForallOp) { return WalkResult::interrupt(); })
      .wasInterrupted();
}

/// The kernels of `block` in order; host control flow that holds foralls
/// (the iterations of a decomposed sinkhorn) stays on the host.
static void collectKernelRoots(Block &block,
                               SmallVectorImpl<KernelRoot> &roots) {
  for (Operation &op : block) {
    if (isa<scf::ForallOp>(op)) {
      roots.push_back({KernelKind::Blocks, {&op}});
    } else if (isa<linalg::LinalgOp>(op)) {
      roots.push_back({KernelKind::Grid, {&op}});
    } else if (op.getNumRegions() > 0 && containsForall(&op)) {
      for (Region &region : op.getRegions())
        for (Block &nested : region)
          collectKernelRoots(nested, roots);
    } else if (mayWriteMemory(&op)) {
      // Consecutive sequential code is one kernel, so that the scalars it
      // passes from one loop to the next stay in registers.
      if (!roots.empty() && roots.back().kind == KernelKind::Serial &&
          roots.back().ops.back()->getBlock() == &block) {
        Operation *last = roots.back().ops.back();
        bool adjacent = true;
        for (Operation *it = last->getNextNode(); it != &op;
             it = it->getNextNode())
          if (!isMemoryEffectFree(it))
            adjacent = false;
        if (adjacent) {
          for (Operation *it = last->getNextNode(); it != &op;
               it = it->getNextNode())
            roots.back().ops.push_back(it);
          roots.back().ops.push_back(&op);
          continue;
        }
      }
      roots.push_back({KernelKind::Serial, {&op}});
    }
  }
}

static Value constantIndex(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

/// Replaces `loop` (no reductions) by nested scf.for loops.
static void parallelToSequential(RewriterBase &rewriter, scf::ParallelOp loop) {
  Location loc = loop.getLoc();
  rewriter.setInsertionPoint(loop);
  SmallVector<Value> ivs;
  for (auto [lb, ub, step] :
       llvm::zip(loop.getLowerBound(), loop.getUpperBound(), loop.getStep())) {
    auto forOp = scf::ForOp::create(rewriter, loc, lb, ub, step);
    ivs.push_back(forOp.getInductionVar());
    rewriter.setInsertionPointToStart(forOp.getBody());
  }
  Block *body = loop.getBody();
  rewriter.eraseOp(body->getTerminator());
  rewriter.inlineBlockBefore(body, rewriter.getInsertionBlock(),
                             rewriter.getInsertionPoint(), ivs);
  rewriter.eraseOp(loop);
}

/// Spreads the parallel dimensions of `op` (on buffers) over `nprocs`
/// processors, the one of `linearId`, cyclically: the innermost parallel
/// dimensions get the largest powers of two up to their sizes, the
/// outermost the rest. Each processor computes whole reductions. An op
/// without parallel dimensions runs on processor 0.
static LogicalResult distributeOp(RewriterBase &rewriter, linalg::LinalgOp op,
                                  Value linearId, int64_t nprocs) {
  Location loc = op.getLoc();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<unsigned> parallel;
  for (auto [dim, type] : llvm::enumerate(op.getIteratorTypesArray()))
    if (linalg::isParallelIterator(type))
      parallel.push_back(dim);
  if (parallel.empty() || nprocs == 1) {
    if (nprocs == 1)
      return success();
    rewriter.setInsertionPoint(op);
    Value isFirst =
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, linearId,
                              constantIndex(rewriter, loc, 0));
    auto guard = scf::IfOp::create(rewriter, loc, isFirst);
    rewriter.moveOpBefore(op, guard.thenBlock()->getTerminator());
    return success();
  }
  // Processors per parallel dimension, innermost first.
  SmallVector<int64_t> procs(parallel.size(), 1);
  int64_t remaining = nprocs;
  for (int64_t i = parallel.size() - 1; i > 0; --i) {
    int64_t size = ranges[parallel[i]];
    int64_t count =
        ShapedType::isDynamic(size)
            ? remaining
            : std::min<int64_t>(llvm::bit_floor(uint64_t(size)), remaining);
    procs[i] = std::max<int64_t>(count, 1);
    remaining /= procs[i];
  }
  procs[0] = remaining;

  SmallVector<int64_t> tileSizes(ranges.size(), 0);
  for (unsigned dim : parallel)
    tileSizes[dim] = 1;
  linalg::LinalgLoopDistributionOptions distribution;
  distribution.procInfo = [&](OpBuilder &b, Location loc,
                              ArrayRef<Range> loopRanges) {
    SmallVector<linalg::ProcInfo> info;
    int64_t stride = 1;
    SmallVector<int64_t> strides(procs.size());
    for (int64_t i = procs.size() - 1; i >= 0; --i) {
      strides[i] = stride;
      stride *= procs[i];
    }
    for (auto [i, count] : llvm::enumerate(procs)) {
      Value id = arith::DivUIOp::create(b, loc, linearId,
                                        constantIndex(b, loc, strides[i]));
      if (i > 0)
        id = arith::RemUIOp::create(b, loc, id, constantIndex(b, loc, count));
      int64_t size = ranges[parallel[i]];
      auto method = !ShapedType::isDynamic(size) && count >= size
                        ? linalg::DistributionMethod::CyclicNumProcsGeNumIters
                        : linalg::DistributionMethod::Cyclic;
      info.push_back({id, constantIndex(b, loc, count), method});
    }
    (void)loopRanges;
    return info;
  };
  // (Only parallel loops take the distribution; each thread then runs its
  // share sequentially.)
  linalg::LinalgTilingOptions options;
  options.setTileSizes(tileSizes)
      .setLoopType(linalg::LinalgTilingLoopType::ParallelLoops)
      .setDistributionOptions(distribution);
  rewriter.setInsertionPoint(op);
  FailureOr<linalg::TiledLinalgOp> tiled =
      linalg::tileLinalgOp(rewriter, op, options);
  if (failed(tiled))
    return op.emitOpError("could not be distributed over GPU threads");
  rewriter.eraseOp(op);
  // (One scf.parallel is listed once per dimension.)
  llvm::SetVector<Operation *> loops(tiled->loops.begin(), tiled->loops.end());
  for (Operation *loop : loops)
    if (auto parallelLoop = dyn_cast_or_null<scf::ParallelOp>(loop))
      parallelToSequential(rewriter, parallelLoop);
  return success();
}

/// Clones into `launch` the host ops that compute values it uses from
/// memory (scalars read from buffers, and what depends on them): the host
/// cannot read device buffers.
static void sinkLoadsIntoLaunch(gpu::LaunchOp launch) {
  Block &body = launch.getBody().front();
  OpBuilder b(&body, body.begin());
  IRMapping mapping;
  std::function<bool(Operation *)> dependsOnLoad = [&](Operation *op) {
    if (isa<memref::LoadOp>(op))
      return true;
    if (!isMemoryEffectFree(op) || op->getNumRegions())
      return false;
    return llvm::any_of(op->getOperands(), [&](Value v) {
      Operation *def = v.getDefiningOp();
      return def && dependsOnLoad(def);
    });
  };
  std::function<Value(Value)> sink = [&](Value v) -> Value {
    if (Value mapped = mapping.lookupOrNull(v))
      return mapped;
    Operation *def = v.getDefiningOp();
    for (Value operand : def->getOperands())
      if (operand.getDefiningOp() && dependsOnLoad(operand.getDefiningOp()))
        sink(operand);
    Operation *clone = b.clone(*def, mapping);
    return clone->getResult(cast<OpResult>(v).getResultNumber());
  };
  launch.getBody().walk([&](Operation *op) {
    for (OpOperand &use : op->getOpOperands()) {
      Operation *def = use.get().getDefiningOp();
      if (!def || launch->isAncestor(def) || !dependsOnLoad(def))
        continue;
      use.set(sink(use.get()));
    }
  });
}

namespace {
/// Where the temporaries of a block go: offsets into the workgroup buffer
/// and into the block's slice of the global scratch buffer.
struct TemporaryLayout {
  SmallVector<std::pair<memref::AllocOp, int64_t>> shared, global;
  int64_t sharedBytes = 0, globalBytes = 0;
};
} // namespace

static int64_t alignTo16(int64_t bytes) { return llvm::alignTo(bytes, 16); }

/// The bytes `alloc` needs at most: dynamic sizes (the partial tiles at
/// the end of a dimension) by their constant upper bounds.
static FailureOr<int64_t> getMaxBytes(memref::AllocOp alloc) {
  MemRefType type = alloc.getType();
  if (!type.getLayout().isIdentity() || !type.getElementType().isIntOrFloat())
    return failure();
  int64_t elements = 1;
  unsigned dynamic = 0;
  for (int64_t size : type.getShape()) {
    if (ShapedType::isDynamic(size)) {
      FailureOr<int64_t> bound = ValueBoundsConstraintSet::computeConstantBound(
          presburger::BoundType::UB,
          ValueBoundsConstraintSet::Variable(
              alloc.getDynamicSizes()[dynamic++]),
          /*stopCondition=*/nullptr, /*closedUB=*/true);
      if (failed(bound))
        return failure();
      size = *bound;
    }
    elements *= size;
  }
  return elements * type.getElementTypeBitWidth() / 8;
}

/// Places the temporaries in `root`, in order, in shared memory while they
/// fit in `budget` bytes, the others in global scratch.
static FailureOr<TemporaryLayout> layoutTemporaries(Operation *root,
                                                    int64_t budget) {
  TemporaryLayout layout;
  WalkResult result = root->walk([&](memref::AllocOp alloc) {
    FailureOr<int64_t> maxBytes = getMaxBytes(alloc);
    if (failed(maxBytes)) {
      alloc.emitOpError("a temporary of a GPU block must have the identity "
                        "layout and sizes with constant upper bounds, got ")
          << alloc.getType();
      return WalkResult::interrupt();
    }
    int64_t bytes = alignTo16(*maxBytes);
    if (layout.sharedBytes + bytes <= budget) {
      layout.shared.push_back({alloc, layout.sharedBytes});
      layout.sharedBytes += bytes;
    } else {
      layout.global.push_back({alloc, layout.globalBytes});
      layout.globalBytes += bytes;
    }
    return WalkResult::advance();
  });
  if (result.wasInterrupted())
    return failure();
  return layout;
}

/// Replaces `alloc` by a view of `buffer` (1-D i8) at byte `shift`, cast to
/// the alloc's memory space.
static void replaceByView(RewriterBase &rewriter, memref::AllocOp alloc,
                          Value buffer, Value shift) {
  MemRefType type = alloc.getType();
  auto bufferType = cast<MemRefType>(buffer.getType());
  rewriter.setInsertionPoint(alloc);
  Value view = memref::ViewOp::create(
      rewriter, alloc.getLoc(),
      MemRefType::get(type.getShape(), type.getElementType(),
                      MemRefLayoutAttrInterface(), bufferType.getMemorySpace()),
      buffer, shift, alloc.getDynamicSizes());
  if (bufferType.getMemorySpace() != type.getMemorySpace())
    view =
        memref::MemorySpaceCastOp::create(rewriter, alloc.getLoc(), type, view);
  for (Operation *user : llvm::make_early_inc_range(alloc->getUsers()))
    if (isa<memref::DeallocOp>(user))
      rewriter.eraseOp(user);
  rewriter.replaceOp(alloc, view);
}

namespace {
struct MixerMapForallToGpuPass
    : public mixer::impl::MixerMapForallToGpuPassBase<MixerMapForallToGpuPass> {
  using Base::Base;

  int64_t threads = 0, sharedBudget = 0;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    FailureOr<TargetDescription> target = getTargetDescription(func);
    if (failed(target))
      return signalPassFailure();
    threads = threadsPerBlock > 0 ? int64_t(threadsPerBlock)
                                  : target->threadsPerBlock.value_or(128);
    sharedBudget = sharedMemoryBytes >= 0
                       ? int64_t(sharedMemoryBytes)
                       : target->sharedMemoryBytes.value_or(48 * 1024);
    if (func.isExternal())
      return;
    if (tensorCorePrecision != "3xtf32" && tensorCorePrecision != "tf32") {
      func.emitError() << "option 'tensor-core-precision' must be 3xtf32 or "
                          "tf32, got '"
                       << tensorCorePrecision << "'";
      return signalPassFailure();
    }

    // Copies are linalg ops, so that they are spread over threads too.
    IRRewriter rewriter(&getContext());
    func.walk([&](memref::CopyOp copy) {
      rewriter.setInsertionPoint(copy);
      rewriter.replaceOpWithNewOp<linalg::CopyOp>(copy, copy.getSource(),
                                                  copy.getTarget());
    });

    SmallVector<KernelRoot> roots;
    collectKernelRoots(func.getBody().front(), roots);
    for (KernelRoot &root : roots)
      if (failed(buildKernel(rewriter, root)))
        return signalPassFailure();
    deallocateHostTemporaries(rewriter, func);
  }

  /// A gpu.launch before `anchor` with `grid` blocks of `blockThreads`
  /// threads and, if `sharedBytes` > 0, one workgroup buffer of that size.
  gpu::LaunchOp createLaunch(RewriterBase &rewriter, Operation *anchor,
                             Value grid, int64_t blockThreads,
                             int64_t sharedBytes) {
    Location loc = anchor->getLoc();
    rewriter.setInsertionPoint(anchor);
    Value one = constantIndex(rewriter, loc, 1);
    SmallVector<Type> workgroup;
    if (sharedBytes > 0)
      workgroup.push_back(MemRefType::get(
          {sharedBytes}, rewriter.getI8Type(), MemRefLayoutAttrInterface(),
          gpu::AddressSpaceAttr::get(rewriter.getContext(),
                                     gpu::AddressSpace::Workgroup)));
    auto launch = gpu::LaunchOp::create(
        rewriter, loc, grid, one, one,
        constantIndex(rewriter, loc, blockThreads), one, one,
        /*dynamicSharedMemorySize=*/nullptr, /*asyncTokenType=*/nullptr,
        /*asyncDependencies=*/ValueRange(), workgroup);
    rewriter.setInsertionPointToEnd(&launch.getBody().front());
    gpu::TerminatorOp::create(rewriter, loc);
    return launch;
  }

  LogicalResult buildKernel(RewriterBase &rewriter, KernelRoot &root) {
    switch (root.kind) {
    case KernelKind::Blocks:
      return buildBlocksKernel(rewriter, cast<scf::ForallOp>(root.ops[0]));
    case KernelKind::Grid:
      return buildGridKernel(rewriter, cast<linalg::LinalgOp>(root.ops[0]));
    case KernelKind::Serial:
      return buildSerialKernel(rewriter, root.ops);
    }
    return failure();
  }

  /// One block per iteration of `forall` (on buffers).
  LogicalResult buildBlocksKernel(RewriterBase &rewriter,
                                  scf::ForallOp forall) {
    if (forall.getNumResults() != 0)
      return forall.emitOpError("must be bufferized before "
                                "mixer-map-forall-to-gpu");
    Location loc = forall.getLoc();
    FailureOr<TemporaryLayout> layout = layoutTemporaries(forall, sharedBudget);
    if (failed(layout))
      return failure();

    // The grid: the product of the trip counts, computed on the host.
    rewriter.setInsertionPoint(forall);
    SmallVector<Value> lbs = getValueOrCreateConstantIndexOp(
        rewriter, loc, forall.getMixedLowerBound());
    SmallVector<Value> ubs = getValueOrCreateConstantIndexOp(
        rewriter, loc, forall.getMixedUpperBound());
    SmallVector<Value> steps =
        getValueOrCreateConstantIndexOp(rewriter, loc, forall.getMixedStep());
    SmallVector<Value> counts;
    Value grid = constantIndex(rewriter, loc, 1);
    for (auto [lb, ub, step] : llvm::zip(lbs, ubs, steps)) {
      Value extent = arith::SubIOp::create(rewriter, loc, ub, lb);
      Value count = arith::CeilDivUIOp::create(rewriter, loc, extent, step);
      counts.push_back(count);
      grid = arith::MulIOp::create(rewriter, loc, grid, count);
    }
    Value scratch;
    if (layout->globalBytes > 0) {
      Value bytes = arith::MulIOp::create(
          rewriter, loc, grid,
          constantIndex(rewriter, loc, layout->globalBytes));
      scratch = memref::AllocOp::create(
          rewriter, loc,
          MemRefType::get({ShapedType::kDynamic}, rewriter.getI8Type()),
          ValueRange{bytes});
    }

    gpu::LaunchOp launch =
        createLaunch(rewriter, forall, grid, threads, layout->sharedBytes);
    if (scratch) {
      rewriter.setInsertionPointAfter(launch);
      memref::DeallocOp::create(rewriter, loc, scratch);
    }
    Block &body = launch.getBody().front();
    rewriter.setInsertionPointToStart(&body);
    Value blockId = launch.getBlockIds().x;
    // The forall's indices, the outermost varying slowest.
    SmallVector<Value> ivs(counts.size());
    Value rest = blockId;
    for (int64_t i = counts.size() - 1; i >= 0; --i) {
      Value index =
          i == 0 ? rest
                 : arith::RemUIOp::create(rewriter, loc, rest, counts[i]);
      if (i > 0)
        rest = arith::DivUIOp::create(rewriter, loc, rest, counts[i]);
      Value scaled = arith::MulIOp::create(rewriter, loc, index, steps[i]);
      ivs[i] = arith::AddIOp::create(rewriter, loc, lbs[i], scaled);
    }
    // The forall's body, without its (empty) terminator.
    Block *forallBody = forall.getBody();
    rewriter.eraseOp(forallBody->getTerminator());
    rewriter.inlineBlockBefore(forallBody, body.getTerminator(), ivs);
    rewriter.eraseOp(forall);

    // Temporaries.
    for (auto [alloc, offset] : layout->shared) {
      rewriter.setInsertionPoint(alloc);
      replaceByView(rewriter, alloc, launch.getWorkgroupAttributions()[0],
                    constantIndex(rewriter, alloc.getLoc(), offset));
    }
    for (auto [alloc, offset] : layout->global) {
      rewriter.setInsertionPoint(alloc);
      Location allocLoc = alloc.getLoc();
      Value base = arith::MulIOp::create(
          rewriter, allocLoc, blockId,
          constantIndex(rewriter, allocLoc, layout->globalBytes));
      Value shift = arith::AddIOp::create(
          rewriter, allocLoc, base, constantIndex(rewriter, allocLoc, offset));
      replaceByView(rewriter, alloc, scratch, shift);
    }

    sinkLoadsIntoLaunch(launch);
    return distributeBlockBody(rewriter, launch);
  }

  /// Spreads the linalg ops of a block over its threads, with a barrier
  /// after each; scalar stores by thread 0, with a barrier after the
  /// outermost statement around them that holds no linalg op.
  LogicalResult distributeBlockBody(RewriterBase &rewriter,
                                    gpu::LaunchOp launch) {
    Location loc = launch.getLoc();
    Value threadId = launch.getThreadIds().x;
    SmallVector<linalg::LinalgOp> linalgOps;
    SmallVector<memref::StoreOp> stores;
    launch.getBody().walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
        linalgOps.push_back(linalgOp);
        return WalkResult::skip();
      }
      if (auto store = dyn_cast<memref::StoreOp>(op))
        stores.push_back(store);
      return WalkResult::advance();
    });
    auto holdsLinalg = [](Operation *op) {
      return op->walk([](linalg::LinalgOp) { return WalkResult::interrupt(); })
          .wasInterrupted();
    };
    // Barriers first, after the statements as they are; then the stores
    // move into their guards.
    llvm::SetVector<Operation *> syncAfter;
    for (memref::StoreOp store : stores) {
      Operation *statement = store;
      while (statement->getParentOp() != launch &&
             !holdsLinalg(statement->getParentOp()))
        statement = statement->getParentOp();
      syncAfter.insert(statement);
    }
    for (linalg::LinalgOp op : linalgOps)
      syncAfter.insert(op);
    for (Operation *op : syncAfter) {
      rewriter.setInsertionPointAfter(op);
      gpu::BarrierOp::create(rewriter, loc);
    }
    for (memref::StoreOp store : stores) {
      rewriter.setInsertionPoint(store);
      Value isFirst = arith::CmpIOp::create(
          rewriter, store.getLoc(), arith::CmpIPredicate::eq, threadId,
          constantIndex(rewriter, store.getLoc(), 0));
      auto guard = scf::IfOp::create(rewriter, store.getLoc(), isFirst);
      rewriter.moveOpBefore(store, guard.thenBlock()->getTerminator());
    }
    // The barriers after each op are in place, so the tensor-core code
    // needs none of its own.
    TensorCoreOptions tensorCoreOptions;
    tensorCoreOptions.splitTf32 = tensorCorePrecision != "tf32";
    tensorCoreOptions.barriers = false;
    for (linalg::LinalgOp op : linalgOps) {
      if (tensorCores && succeeded(rewriteContractionForTensorCores(
                             rewriter, op, tensorCoreOptions)))
        continue;
      if (failed(distributeOp(rewriter, op, threadId, threads)))
        return failure();
    }
    return success();
  }

  /// A linalg op on the host: its elements over blocks and threads.
  LogicalResult buildGridKernel(RewriterBase &rewriter, linalg::LinalgOp op) {
    Location loc = op.getLoc();
    int64_t elements = 1;
    for (auto [size, type] :
         llvm::zip(op.getStaticLoopRanges(), op.getIteratorTypesArray()))
      if (linalg::isParallelIterator(type))
        elements =
            ShapedType::isDynamic(size) || elements < 0 ? -1 : elements * size;
    // Enough blocks for one element per thread, at most 1024 (the threads
    // loop over the rest).
    int64_t blocks =
        elements < 0
            ? 1024
            : std::clamp<int64_t>(llvm::divideCeil(elements, threads), 1, 1024);
    rewriter.setInsertionPoint(op);
    gpu::LaunchOp launch =
        createLaunch(rewriter, op, constantIndex(rewriter, loc, blocks),
                     threads, /*sharedBytes=*/0);
    rewriter.moveOpBefore(op, launch.getBody().front().getTerminator());
    rewriter.setInsertionPoint(op);
    Value base = arith::MulIOp::create(rewriter, loc, launch.getBlockIds().x,
                                       constantIndex(rewriter, loc, threads));
    Value linearId =
        arith::AddIOp::create(rewriter, loc, base, launch.getThreadIds().x);
    sinkLoadsIntoLaunch(launch);
    return distributeOp(rewriter, op, linearId, blocks * threads);
  }

  /// Sequential host code that writes memory: one thread.
  LogicalResult buildSerialKernel(RewriterBase &rewriter,
                                  ArrayRef<Operation *> ops) {
    Operation *first = ops.front();
    Value one = (rewriter.setInsertionPoint(first),
                 constantIndex(rewriter, first->getLoc(), 1));
    gpu::LaunchOp launch = createLaunch(rewriter, first, one, 1, 0);
    llvm::SmallPtrSet<Operation *, 8> inKernel(ops.begin(), ops.end());
    for (Operation *op : ops) {
      for (Operation *user : op->getUsers()) {
        Operation *ancestor = user;
        while (ancestor && !inKernel.contains(ancestor))
          ancestor = ancestor->getParentOp();
        if (ancestor)
          continue;
        if (!isMemoryEffectFree(op))
          return op->emitOpError("computes a value that host code uses; "
                                 "it cannot run as a GPU kernel");
        // Pure ops between the loops: the host keeps a copy.
        rewriter.setInsertionPoint(launch);
        Operation *copy = rewriter.clone(*op);
        rewriter.replaceUsesWithIf(op->getResults(), copy->getResults(),
                                   [&](OpOperand &use) {
                                     return !launch->isAncestor(use.getOwner());
                                   });
        break;
      }
    }
    for (Operation *op : ops)
      rewriter.moveOpBefore(op, launch.getBody().front().getTerminator());
    sinkLoadsIntoLaunch(launch);
    return success();
  }

  /// Temporaries allocated by host code are freed at the end of their
  /// block, unless they leave it (returned or yielded).
  void deallocateHostTemporaries(RewriterBase &rewriter, func::FuncOp func) {
    SmallVector<memref::AllocOp> allocs;
    func.walk([&](memref::AllocOp alloc) {
      if (!alloc->getParentOfType<gpu::LaunchOp>())
        allocs.push_back(alloc);
    });
    for (memref::AllocOp alloc : allocs) {
      bool leaves = llvm::any_of(alloc->getUsers(), [](Operation *user) {
        return user->hasTrait<OpTrait::IsTerminator>() ||
               isa<memref::DeallocOp>(user);
      });
      if (leaves)
        continue;
      rewriter.setInsertionPoint(alloc->getBlock()->getTerminator());
      memref::DeallocOp::create(rewriter, alloc.getLoc(), alloc);
    }
  }
};
} // namespace
