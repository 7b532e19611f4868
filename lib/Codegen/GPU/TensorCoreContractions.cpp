//===- TensorCoreContractions.cpp - f32 contractions on tensor cores ------===//
//
// Rewrites the matmul-shaped linalg ops a thread block runs into warp-level
// nvgpu.mma.sync code (m16n8k8, tf32), optionally with the 3xTF32 split that
// keeps fp32 accuracy. The fragment layout is MmaTf32Layout.h's.
//
//===----------------------------------------------------------------------===//

#include "mixer/Codegen/GPU/MmaTf32Layout.h"
#include "mixer/Codegen/GPU/Passes.h"
#include "mixer/Codegen/GPU/Transforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::mixer {
#define GEN_PASS_DEF_MIXERGPUTENSORCORECONTRACTIONSPASS
#include "mixer/Codegen/GPU/Passes.h.inc"
} // namespace mlir::mixer

using namespace mlir;
using namespace ::mixer::gpu;

namespace {

/// A contraction the rewrite accepts: its loop dimensions by role and their
/// static sizes.
struct MatmulShape {
  SmallVector<unsigned> batch;
  unsigned m, n, k;
  SmallVector<int64_t> sizes;
};

/// Whether `op` runs once per thread block: inside a kernel or a block-mapped
/// scf.forall, with no thread-level loop or branch in between (the emitted
/// code needs every lane of every warp, and its barriers uniform control).
bool isBlockLevel(Operation *op) {
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp()) {
    if (isa<gpu::LaunchOp, gpu::GPUFuncOp>(parent))
      return true;
    if (auto forall = dyn_cast<scf::ForallOp>(parent)) {
      std::optional<ArrayAttr> mapping = forall.getMapping();
      return mapping && !mapping->empty() &&
             isa<gpu::GPUBlockMappingAttr>((*mapping)[0]);
    }
    if (!isa<scf::ForOp>(parent))
      return false;
  }
  return false;
}

/// The roles and sizes of `op`'s loops when it is an f32 matmul-shaped
/// contraction on buffers with tensor-core-sized static dimensions.
std::optional<MatmulShape> matchMatmul(linalg::LinalgOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1 || !op.hasOnlyProjectedPermutations() ||
      !linalg::isaContractionOpInterface(op))
    return std::nullopt;
  for (OpOperand &operand : op->getOpOperands())
    if (!getElementTypeOrSelf(operand.get().getType()).isF32())
      return std::nullopt;
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (failed(dims) || dims->m.size() != 1 || dims->n.size() != 1 ||
      dims->k.size() != 1)
    return std::nullopt;
  MatmulShape shape{
      SmallVector<unsigned>(dims->batch.begin(), dims->batch.end()), dims->m[0],
      dims->n[0], dims->k[0], op.getStaticLoopRanges()};
  if (llvm::any_of(shape.sizes, ShapedType::isDynamic) ||
      shape.sizes[shape.m] % kMmaM || shape.sizes[shape.n] % kMmaN ||
      shape.sizes[shape.k] % kMmaK)
    return std::nullopt;
  return shape;
}

/// The largest multiple of `step` up to `limit` that divides `size` (`size`
/// is a multiple of `step`).
int64_t tileSize(int64_t size, int64_t limit, int64_t step) {
  int64_t tile = std::max(step, limit - limit % step);
  while (size % tile)
    tile -= step;
  return tile;
}

/// Emits the warp-level code of one contraction at the builder's point.
class WarpMmaEmitter {
public:
  WarpMmaEmitter(OpBuilder &b, linalg::LinalgOp op, const MatmulShape &shape,
                 const mlir::mixer::TensorCoreOptions &options)
      : b(b), loc(op.getLoc()), op(op), shape(shape), split(options.splitTf32),
        options(options) {}

  void emit();

private:
  Value cst(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value mul(Value x, int64_t c) {
    return arith::MulIOp::create(b, loc, x, cst(c));
  }
  Value div(Value x, int64_t c) {
    return arith::DivUIOp::create(b, loc, x, cst(c));
  }
  Value rem(Value x, int64_t c) {
    return arith::RemUIOp::create(b, loc, x, cst(c));
  }
  /// base + the lane's part of a fragment coordinate.
  Value laneIndex(Value base, LaneAffine f) {
    return add(base, add(add(mul(group, f.group), mul(inGroup, f.inGroup)),
                         cst(f.offset)));
  }
  /// Loads operand `operand` at the iteration point `point` (one index per
  /// loop; the operand's map picks its own).
  Value load(OpOperand &operand, ArrayRef<Value> point);
  void store(Value value, OpOperand &operand, ArrayRef<Value> point);
  /// A vector of `shape` from scalars (row-major).
  Value fragment(ArrayRef<int64_t> fragShape, ArrayRef<Value> elems) {
    return vector::FromElementsOp::create(
        b, loc, VectorType::get(fragShape, b.getF32Type()), elems);
  }
  /// (tf32(x), x - tf32(x)) elementwise.
  std::pair<Value, Value> splitTf32(Value x);
  Value mma(Value a, Value bFrag, Value c) {
    return nvgpu::MmaSyncOp::create(b, loc, a, bFrag, c,
                                    ArrayRef<int64_t>{kMmaM, kMmaN, kMmaK},
                                    /*tf32Enabled=*/true);
  }

  OpBuilder &b;
  Location loc;
  linalg::LinalgOp op;
  const MatmulShape &shape;
  bool split;
  const mlir::mixer::TensorCoreOptions &options;
  Value group, inGroup;
};

Value WarpMmaEmitter::load(OpOperand &operand, ArrayRef<Value> point) {
  SmallVector<Value> indices;
  for (AffineExpr e : op.getMatchingIndexingMap(&operand).getResults())
    indices.push_back(point[cast<AffineDimExpr>(e).getPosition()]);
  return memref::LoadOp::create(b, loc, operand.get(), indices);
}

void WarpMmaEmitter::store(Value value, OpOperand &operand,
                           ArrayRef<Value> point) {
  SmallVector<Value> indices;
  for (AffineExpr e : op.getMatchingIndexingMap(&operand).getResults())
    indices.push_back(point[cast<AffineDimExpr>(e).getPosition()]);
  memref::StoreOp::create(b, loc, value, operand.get(), indices);
}

std::pair<Value, Value> WarpMmaEmitter::splitTf32(Value x) {
  auto type = cast<VectorType>(x.getType());
  auto intType = type.clone(b.getI32Type());
  Value bits = arith::BitcastOp::create(b, loc, intType, x);
  Value mask = arith::ConstantOp::create(
      b, loc,
      DenseElementsAttr::get(
          intType,
          b.getI32IntegerAttr(static_cast<int32_t>(kTf32Mask)).getValue()));
  Value hi = arith::BitcastOp::create(
      b, loc, type, arith::AndIOp::create(b, loc, bits, mask));
  Value lo = arith::SubFOp::create(b, loc, x, hi);
  return {hi, lo};
}

void WarpMmaEmitter::emit() {
  const int64_t warpTileM = options.warpTileM, warpTileN = options.warpTileN;
  const int64_t sizeM = shape.sizes[shape.m], sizeN = shape.sizes[shape.n],
                sizeK = shape.sizes[shape.k];
  const int64_t tileM = tileSize(sizeM, warpTileM, kMmaM);
  const int64_t tileN = tileSize(sizeN, warpTileN, kMmaN);
  const int64_t fragsM = tileM / kMmaM, fragsN = tileN / kMmaN;
  int64_t numTiles = (sizeM / tileM) * (sizeN / tileN);
  for (unsigned d : shape.batch)
    numTiles *= shape.sizes[d];

  // Linear thread id, warp id and lane; only whole warps take tiles.
  auto id = [&](gpu::Dimension d) {
    return gpu::ThreadIdOp::create(b, loc, d).getResult();
  };
  auto dim = [&](gpu::Dimension d) {
    return gpu::BlockDimOp::create(b, loc, d).getResult();
  };
  Value dimX = dim(gpu::Dimension::x), dimY = dim(gpu::Dimension::y);
  Value tid =
      add(id(gpu::Dimension::x),
          arith::MulIOp::create(
              b, loc, dimX,
              add(id(gpu::Dimension::y),
                  arith::MulIOp::create(b, loc, dimY, id(gpu::Dimension::z)))));
  Value threads =
      arith::MulIOp::create(b, loc, arith::MulIOp::create(b, loc, dimX, dimY),
                            dim(gpu::Dimension::z));
  Value warp = div(tid, ::mixer::gpu::kWarpSize),
        lane = rem(tid, ::mixer::gpu::kWarpSize);
  Value numWarps = div(threads, ::mixer::gpu::kWarpSize);
  group = div(lane, 4);
  inGroup = rem(lane, 4);

  OpOperand &lhs = *op.getDpsInputOperand(0);
  OpOperand &rhs = *op.getDpsInputOperand(1);
  OpOperand &out = *op.getDpsInitOperand(0);
  const unsigned numLoops = shape.sizes.size();

  if (options.barriers)
    gpu::BarrierOp::create(b, loc);
  auto tileLoop = scf::ForOp::create(b, loc, warp, cst(numTiles), numWarps);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(tileLoop.getBody());
    SmallVector<Value> point(numLoops);
    Value rest = tileLoop.getInductionVar();
    Value tileCol = rem(rest, sizeN / tileN);
    rest = div(rest, sizeN / tileN);
    Value tileRow = rem(rest, sizeM / tileM);
    rest = div(rest, sizeM / tileM);
    for (unsigned d : llvm::reverse(shape.batch)) {
      point[d] = rem(rest, shape.sizes[d]);
      rest = div(rest, shape.sizes[d]);
    }
    Value row0 = mul(tileRow, tileM), col0 = mul(tileCol, tileN);
    auto rowOf = [&](int64_t i, LaneAffine f) {
      return laneIndex(add(row0, cst(i * kMmaM)), f);
    };
    auto colOf = [&](int64_t j, LaneAffine f) {
      return laneIndex(add(col0, cst(j * kMmaN)), f);
    };
    // Sets `point` to register r of this lane's C fragment (i, j).
    auto atC = [&](int64_t i, int64_t j, int64_t r) {
      FragmentElement e = mmaCElement(r);
      point[shape.m] = rowOf(i, e.row);
      point[shape.n] = colOf(j, e.col);
    };
    // This lane's `regs` registers of an `operand` fragment, register r read
    // at the point `at(r)` sets.
    auto loadFragment = [&](OpOperand &operand, int64_t regs,
                            function_ref<void(int64_t)> at) {
      SmallVector<Value> elems;
      for (int64_t r = 0; r < regs; ++r) {
        at(r);
        elems.push_back(load(operand, point));
      }
      return elems;
    };
    // Accumulators: the output's fragments, in registers for the K loop.
    SmallVector<Value> accs;
    for (int64_t i = 0; i < fragsM; ++i)
      for (int64_t j = 0; j < fragsN; ++j) {
        auto atCij = [&](int64_t r) { atC(i, j, r); };
        accs.push_back(fragment({2, 2}, loadFragment(out, kMmaCRegs, atCij)));
      }
    auto kLoop =
        scf::ForOp::create(b, loc, cst(0), cst(sizeK), cst(kMmaK), accs);
    {
      OpBuilder::InsertionGuard kGuard(b);
      b.setInsertionPointToStart(kLoop.getBody());
      Value k0 = kLoop.getInductionVar();
      // An A or B fragment, as its tf32 high and low parts when split.
      auto operandFragment = [&](OpOperand &operand, int64_t regs,
                                 function_ref<void(int64_t)> at) {
        Value v = fragment({regs, 1}, loadFragment(operand, regs, at));
        return split ? splitTf32(v) : std::make_pair(v, Value());
      };
      SmallVector<std::pair<Value, Value>> aFrags, bFrags;
      for (int64_t i = 0; i < fragsM; ++i)
        aFrags.push_back(operandFragment(lhs, kMmaARegs, [&](int64_t r) {
          FragmentElement e = mmaAElement(r);
          point[shape.m] = rowOf(i, e.row);
          point[shape.k] = laneIndex(k0, e.col);
        }));
      for (int64_t j = 0; j < fragsN; ++j)
        bFrags.push_back(operandFragment(rhs, kMmaBRegs, [&](int64_t r) {
          FragmentElement e = mmaBElement(r);
          point[shape.k] = laneIndex(k0, e.row);
          point[shape.n] = colOf(j, e.col);
        }));
      SmallVector<Value> next;
      for (int64_t i = 0; i < fragsM; ++i)
        for (int64_t j = 0; j < fragsN; ++j) {
          auto [aHi, aLo] = aFrags[i];
          auto [bHi, bLo] = bFrags[j];
          Value acc = kLoop.getRegionIterArg(i * fragsN + j);
          // The small cross terms first, the leading product last.
          if (split) {
            acc = mma(aLo, bHi, acc);
            acc = mma(aHi, bLo, acc);
          }
          next.push_back(mma(aHi, bHi, acc));
        }
      scf::YieldOp::create(b, loc, next);
    }
    for (int64_t i = 0; i < fragsM; ++i)
      for (int64_t j = 0; j < fragsN; ++j)
        for (int64_t r = 0; r < kMmaCRegs; ++r) {
          atC(i, j, r);
          Value v =
              vector::ExtractOp::create(b, loc, kLoop.getResult(i * fragsN + j),
                                        ArrayRef<int64_t>{r / 2, r % 2});
          store(v, out, point);
        }
  }
  if (options.barriers)
    gpu::BarrierOp::create(b, loc);
}

struct MixerGpuTensorCoreContractionsPass
    : public mlir::mixer::impl::MixerGpuTensorCoreContractionsPassBase<
          MixerGpuTensorCoreContractionsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (precision != "3xtf32" && precision != "tf32") {
      emitError(getOperation()->getLoc())
          << "option 'precision' must be 3xtf32 or tf32, got '" << precision
          << "'";
      return signalPassFailure();
    }
    if (warpTileM < kMmaM || warpTileM % kMmaM || warpTileN < kMmaN ||
        warpTileN % kMmaN) {
      emitError(getOperation()->getLoc())
          << "options 'warp-tile-m' and 'warp-tile-n' must be multiples of "
          << kMmaM << " and " << kMmaN << ", got "
          << static_cast<int64_t>(warpTileM) << " and "
          << static_cast<int64_t>(warpTileN);
      return signalPassFailure();
    }
    SmallVector<linalg::LinalgOp> work;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (isBlockLevel(op))
        work.push_back(op);
    });
    mlir::mixer::TensorCoreOptions options;
    options.splitTf32 = precision == "3xtf32";
    options.warpTileM = warpTileM;
    options.warpTileN = warpTileN;
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : work)
      (void)mlir::mixer::rewriteContractionForTensorCores(rewriter, op,
                                                          options);
  }
};

} // namespace

LogicalResult mlir::mixer::rewriteContractionForTensorCores(
    RewriterBase &rewriter, linalg::LinalgOp op,
    const TensorCoreOptions &options) {
  std::optional<MatmulShape> shape = matchMatmul(op);
  if (!shape)
    return failure();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(op);
  WarpMmaEmitter(rewriter, op, *shape, options).emit();
  rewriter.eraseOp(op);
  return success();
}
