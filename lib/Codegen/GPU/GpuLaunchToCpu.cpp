//===- GpuLaunchToCpu.cpp - thread-mapped kernels on OpenMP threads -------===//
//
// The kernels of mixer-map-forall-to-gpu, run on the CPU as they would run
// on the GPU: the blocks one after another, the threads of a block as
// concurrent OpenMP threads that meet at every gpu.barrier, the workgroup
// buffer shared by them.
//
//===----------------------------------------------------------------------===//

#include "mixer/Codegen/GPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::mixer {
#define GEN_PASS_DEF_MIXERGPULAUNCHTOCPUPASS
#include "mixer/Codegen/GPU/Passes.h.inc"
} // namespace mlir::mixer

using namespace mlir;
using namespace mlir::mixer;

static constexpr StringLiteral kThreadNumFn = "omp_get_thread_num";

/// Declares `int omp_get_thread_num(void)` in `module` once.
static func::FuncOp declareThreadNum(ModuleOp module) {
  if (auto fn = module.lookupSymbol<func::FuncOp>(kThreadNumFn))
    return fn;
  OpBuilder b(module.getBodyRegion());
  auto fn = func::FuncOp::create(b, module.getLoc(), kThreadNumFn,
                                 b.getFunctionType({}, {b.getI32Type()}));
  fn.setPrivate();
  return fn;
}

/// The workgroup buffer of a block in default memory: its views in the
/// kernel (views cast to the default memory space) read it directly.
static LogicalResult rehomeWorkgroupBuffer(RewriterBase &rewriter,
                                           BlockArgument attribution,
                                           Value buffer) {
  for (Operation *user : llvm::make_early_inc_range(attribution.getUsers())) {
    auto view = dyn_cast<memref::ViewOp>(user);
    if (!view)
      return user->emitOpError("uses a workgroup buffer other than through "
                               "memref.view; it cannot run on the CPU");
    MemRefType type = view.getType();
    rewriter.setInsertionPoint(view);
    // (The buffer is defined before the launch, so it dominates the view.)
    Value local = memref::ViewOp::create(
        rewriter, view.getLoc(),
        MemRefType::get(type.getShape(), type.getElementType()), buffer,
        view.getByteShift(), view.getSizes());
    for (Operation *viewUser : llvm::make_early_inc_range(view->getUsers())) {
      auto cast = dyn_cast<memref::MemorySpaceCastOp>(viewUser);
      if (!cast || cast.getType() != local.getType())
        return viewUser->emitOpError(
            "uses a workgroup view other than cast to the default memory "
            "space; it cannot run on the CPU");
      rewriter.replaceOp(cast, local);
    }
    rewriter.eraseOp(view);
  }
  return success();
}

static LogicalResult emulateLaunch(RewriterBase &rewriter, gpu::LaunchOp launch,
                                   func::FuncOp tid) {
  Location loc = launch.getLoc();
  auto isOne = [](Value v) {
    std::optional<int64_t> c = getConstantIntValue(v);
    return c && *c == 1;
  };
  if (!isOne(launch.getGridSizeY()) || !isOne(launch.getGridSizeZ()) ||
      !isOne(launch.getBlockSizeY()) || !isOne(launch.getBlockSizeZ()) ||
      !launch.getPrivateAttributions().empty() || launch.getAsyncToken())
    return launch.emitOpError("only synchronous launches over x with "
                              "workgroup buffers run on the CPU");
  rewriter.setInsertionPoint(launch);
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  // The shared memory of a block, shared by its threads; the blocks run
  // one after another, so they reuse it.
  SmallVector<Value> buffers;
  for (BlockArgument attribution : launch.getWorkgroupAttributions()) {
    auto type = cast<MemRefType>(attribution.getType());
    Value buffer = memref::AllocOp::create(
        rewriter, loc, MemRefType::get(type.getShape(), type.getElementType()),
        rewriter.getI64IntegerAttr(64));
    if (failed(rehomeWorkgroupBuffer(rewriter, attribution, buffer)))
      return failure();
    buffers.push_back(buffer);
    rewriter.setInsertionPoint(launch);
  }
  auto blocks =
      scf::ForOp::create(rewriter, loc, zero, launch.getGridSizeX(), one);
  for (Value buffer : buffers)
    memref::DeallocOp::create(rewriter, loc, buffer);
  rewriter.setInsertionPointToStart(blocks.getBody());
  Value blockId = blocks.getInductionVar();
  Value threads = arith::IndexCastOp::create(
      rewriter, loc, rewriter.getI32Type(), launch.getBlockSizeX());
  omp::ParallelOperands clauses;
  clauses.numThreads = threads;
  auto parallel = omp::ParallelOp::create(rewriter, loc, clauses);
  Block *body = rewriter.createBlock(&parallel.getRegion());
  rewriter.setInsertionPointToStart(body);
  Value threadNum =
      func::CallOp::create(rewriter, loc, tid, ValueRange()).getResult(0);
  Value threadId = arith::IndexCastOp::create(
      rewriter, loc, rewriter.getIndexType(), threadNum);
  auto terminator = omp::TerminatorOp::create(rewriter, loc);

  // Every argument of the launch body: ids, sizes, then the attributions
  // (rehomed above, no uses left).
  Block &launchBody = launch.getBody().front();
  SmallVector<Value> replacements;
  for (BlockArgument arg : launchBody.getArguments()) {
    Value value = zero;
    if (arg == launch.getBlockIds().x)
      value = blockId;
    else if (arg == launch.getThreadIds().x)
      value = threadId;
    else if (arg == launch.getGridSize().x)
      value = launch.getGridSizeX();
    else if (arg == launch.getBlockSize().x)
      value = launch.getBlockSizeX();
    else if (arg == launch.getGridSize().y || arg == launch.getGridSize().z ||
             arg == launch.getBlockSize().y || arg == launch.getBlockSize().z)
      value = one;
    if (!arg.use_empty() && value.getType() != arg.getType())
      return launch.emitOpError("has a block argument the CPU cannot supply");
    replacements.push_back(value);
  }
  rewriter.inlineBlockBefore(&launchBody, terminator, replacements);
  parallel.walk([&](Operation *op) {
    if (isa<gpu::BarrierOp>(op)) {
      rewriter.setInsertionPoint(op);
      rewriter.replaceOpWithNewOp<omp::BarrierOp>(op);
    } else if (isa<gpu::TerminatorOp>(op)) {
      rewriter.eraseOp(op);
    }
  });
  rewriter.eraseOp(launch);
  return success();
}

namespace {
struct MixerGpuLaunchToCpuPass
    : public mixer::impl::MixerGpuLaunchToCpuPassBase<MixerGpuLaunchToCpuPass> {
  void runOnOperation() override {
    SmallVector<gpu::LaunchOp> launches;
    getOperation().walk([&](gpu::LaunchOp l) { launches.push_back(l); });
    if (launches.empty())
      return;
    func::FuncOp tid = declareThreadNum(getOperation());
    IRRewriter rewriter(&getContext());
    for (gpu::LaunchOp launch : launches)
      if (failed(emulateLaunch(rewriter, launch, tid)))
        return signalPassFailure();
  }
};
} // namespace
