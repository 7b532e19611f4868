//===- KernelOps.cpp - verifiers, builders and tiling of kernel ops -------===//
//
// mixer.kernel_mv, mixer.kernel_lse, mixer.transport_cost and the composite
// mixer.sinkhorn, plus the kernel-kind helpers and the `kernel(<kind>)`
// assembly directive.
//
//===----------------------------------------------------------------------===//

#include "KernelShapes.h"
#include "ShapeVerifier.h"
#include "TilingUtils.h"
#include "mixer/Dialect/Mixer/IR/MixerOps.h"

#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::mixer;

//===----------------------------------------------------------------------===//
// Kernel kinds
//===----------------------------------------------------------------------===//

bool mlir::mixer::isKernelFunction(KernelKind kind) {
  return kind != KernelKind::sqeuclidean;
}

bool mlir::mixer::isLogDomainCost(KernelKind kind) {
  return kind == KernelKind::sqeuclidean || kind == KernelKind::gaussian ||
         kind == KernelKind::laplacian;
}

bool mlir::mixer::isDistanceBased(KernelKind kind) {
  return kind != KernelKind::linear;
}

ParseResult mlir::mixer::parseKernelKind(OpAsmParser &parser,
                                         KernelKindAttr &kind) {
  llvm::SMLoc loc = parser.getCurrentLocation();
  StringRef keyword;
  if (parser.parseKeyword(&keyword))
    return failure();
  std::optional<KernelKind> value = symbolizeKernelKind(keyword);
  if (!value)
    return parser.emitError(loc) << "unknown kernel kind '" << keyword << "'";
  kind = KernelKindAttr::get(parser.getContext(), *value);
  return success();
}

void mlir::mixer::printKernelKind(OpAsmPrinter &printer, Operation *,
                                  KernelKindAttr kind) {
  printer << stringifyKernelKind(kind.getValue());
}

//===----------------------------------------------------------------------===//
// Shared pieces
//===----------------------------------------------------------------------===//

SmallVector<StringRef>
mlir::mixer::kernelDims(bool batched, std::initializer_list<StringRef> dims) {
  SmallVector<StringRef> result;
  if (batched)
    result.push_back("Bt");
  result.append(dims.begin(), dims.end());
  return result;
}

FailureOr<bool> mlir::mixer::batchedFromX(Operation *op, Value x) {
  int64_t rank = cast<RankedTensorType>(x.getType()).getRank();
  if (rank != 2 && rank != 3)
    return op->emitOpError() << "operand 'x' must have rank 2 [N, D] or rank "
                                "3 [Bt, N, D], got rank "
                             << rank;
  return rank == 3;
}

LogicalResult mlir::mixer::verifyLogDomainCost(Operation *op,
                                               StringRef attrName,
                                               KernelKind kind) {
  if (isLogDomainCost(kind))
    return success();
  return op->emitOpError() << "attribute '" << attrName
                           << "' must be a cost (sqeuclidean, gaussian or "
                              "laplacian), got "
                           << stringifyKernelKind(kind);
}

//===----------------------------------------------------------------------===//
// KernelMvOp
//===----------------------------------------------------------------------===//

void KernelMvOp::build(OpBuilder &builder, OperationState &state,
                       KernelKind kernel, Value x, Value y, Value v,
                       Value bandwidth, Value outInit) {
  build(builder, state, outInit.getType(),
        KernelKindAttr::get(builder.getContext(), kernel), x, y, v, bandwidth,
        ValueRange{outInit});
}

LogicalResult mlir::mixer::verifyKernelFunction(Operation *op,
                                                KernelKind kind) {
  if (isKernelFunction(kind))
    return success();
  return op->emitOpError() << "attribute 'kernel' " << stringifyKernelKind(kind)
                           << " is a cost, not a kernel (use it with "
                              "mixer.kernel_lse or mixer.sinkhorn)";
}

LogicalResult mlir::mixer::verifyKernelMvOperands(ShapeVerifier &v,
                                                  bool batched, KernelKind kind,
                                                  Value x, Value y,
                                                  Value values,
                                                  Value bandwidth) {
  auto dims = [&](std::initializer_list<StringRef> d) {
    return kernelDims(batched, d);
  };
  if (failed(v.check(x, "x", dims({"N", "D"}))) ||
      failed(v.check(y, "y", dims({"M", "D"}))) ||
      failed(v.check(values, "v", dims({"M", "C"}))) ||
      failed(v.checkScalar(bandwidth, "bandwidth")))
    return failure();
  if (kind != KernelKind::linear) // The linear kernel ignores its bandwidth.
    v.require(bandwidth, "bandwidth", ValueRule::Positive);
  return success();
}

LogicalResult KernelMvOp::verify() {
  KernelKind kind = getKernel();
  if (failed(verifyKernelFunction(*this, kind)))
    return failure();
  FailureOr<bool> batched = batchedFromX(*this, getX());
  if (failed(batched))
    return failure();
  ShapeVerifier v(*this);
  auto dims = [&](std::initializer_list<StringRef> d) {
    return kernelDims(*batched, d);
  };
  if (failed(verifyKernelMvOperands(v, *batched, kind, getX(), getY(), getV(),
                                    getBandwidth())) ||
      failed(verifyOutsAndResults(*this, getOuts(), 1)) ||
      failed(v.check(getOuts()[0], "out", dims({"N", "C"}))))
    return failure();
  return success();
}

// Loops ((Bt,) N, C, M, D): a tile is a block of ((Bt,) N, C); it reads its
// rows of x, all of y and its columns of v, and sums over M and D inside.
static OpStructure structureOf(KernelMvOp op) {
  bool batched = op.isBatched();
  OpStructure s(op.getContext());
  s.tiled(kernelDims(batched, {"N", "C"})).reduction({"M", "D"});
  return s.operand(op.getX(), kernelDims(batched, {"N", "D"}))
      .operand(op.getY(), kernelDims(batched, {"M", "D"}))
      .operand(op.getV(), kernelDims(batched, {"M", "C"}))
      .operand(op.getBandwidth(), {})
      .operand(op.getOuts()[0], kernelDims(batched, {"N", "C"}));
}

MIXER_STRUCTURED_OP(KernelMvOp)

//===----------------------------------------------------------------------===//
// KernelLseOp
//===----------------------------------------------------------------------===//

void KernelLseOp::build(OpBuilder &builder, OperationState &state,
                        KernelKind kernel, Value x, Value y, Value eps, Value g,
                        Value outInit) {
  build(builder, state, outInit.getType(),
        KernelKindAttr::get(builder.getContext(), kernel), x, y, eps, g,
        ValueRange{outInit});
}

LogicalResult KernelLseOp::verify() {
  if (failed(verifyLogDomainCost(*this, "kernel", getKernel())))
    return failure();
  FailureOr<bool> batched = batchedFromX(*this, getX());
  if (failed(batched))
    return failure();
  ShapeVerifier v(*this);
  auto dims = [&](std::initializer_list<StringRef> d) {
    return kernelDims(*batched, d);
  };
  if (failed(v.check(getX(), "x", dims({"N", "D"}))) ||
      failed(v.check(getY(), "y", dims({"M", "D"}))) ||
      failed(v.checkScalar(getEps(), "eps")))
    return failure();
  v.require(getEps(), "eps", ValueRule::Positive);
  if (getG() && failed(v.check(getG(), "g", dims({"M"}))))
    return failure();
  if (failed(verifyOutsAndResults(*this, getOuts(), 1)) ||
      failed(v.check(getOuts()[0], "out", dims({"N"}))))
    return failure();
  return success();
}

// Loops ((Bt,) N, M, D): a tile is a block of ((Bt,) N); it reads its rows
// of x and all of y and g, and the log-sum-exp over M stays inside.
static OpStructure structureOf(KernelLseOp op) {
  bool batched = op.isBatched();
  OpStructure s(op.getContext());
  s.tiled(kernelDims(batched, {"N"})).reduction({"M", "D"});
  return s.operand(op.getX(), kernelDims(batched, {"N", "D"}))
      .operand(op.getY(), kernelDims(batched, {"M", "D"}))
      .operand(op.getEps(), {})
      .operand(op.getG(), kernelDims(batched, {"M"}))
      .operand(op.getOuts()[0], kernelDims(batched, {"N"}));
}

MIXER_STRUCTURED_OP(KernelLseOp)

//===----------------------------------------------------------------------===//
// TransportCostOp
//===----------------------------------------------------------------------===//

void TransportCostOp::build(OpBuilder &builder, OperationState &state,
                            KernelKind cost, Value x, Value y, Value logU,
                            Value logV, Value eps, Value outInit) {
  build(builder, state, outInit.getType(),
        KernelKindAttr::get(builder.getContext(), cost), x, y, logU, logV, eps,
        ValueRange{outInit});
}

LogicalResult TransportCostOp::verify() {
  if (failed(verifyLogDomainCost(*this, "cost", getCost())))
    return failure();
  FailureOr<bool> batched = batchedFromX(*this, getX());
  if (failed(batched))
    return failure();
  ShapeVerifier v(*this);
  auto dims = [&](std::initializer_list<StringRef> d) {
    return kernelDims(*batched, d);
  };
  if (failed(v.check(getX(), "x", dims({"N", "D"}))) ||
      failed(v.check(getY(), "y", dims({"M", "D"}))) ||
      failed(v.check(getLogU(), "log_u", dims({"N"}))) ||
      failed(v.check(getLogV(), "log_v", dims({"M"}))) ||
      failed(v.checkScalar(getEps(), "eps")))
    return failure();
  v.require(getEps(), "eps", ValueRule::Positive);
  if (failed(verifyOutsAndResults(*this, getOuts(), 1)) ||
      failed(v.check(getOuts()[0], "out", dims({"N"}))))
    return failure();
  return success();
}

// Loops ((Bt,) N, M, D): a tile is a block of ((Bt,) N); it reads its rows
// of x and log_u and all of y and log_v, and the sum over M stays inside.
static OpStructure structureOf(TransportCostOp op) {
  bool batched = op.isBatched();
  OpStructure s(op.getContext());
  s.tiled(kernelDims(batched, {"N"})).reduction({"M", "D"});
  return s.operand(op.getX(), kernelDims(batched, {"N", "D"}))
      .operand(op.getY(), kernelDims(batched, {"M", "D"}))
      .operand(op.getLogU(), kernelDims(batched, {"N"}))
      .operand(op.getLogV(), kernelDims(batched, {"M"}))
      .operand(op.getEps(), {})
      .operand(op.getOuts()[0], kernelDims(batched, {"N"}));
}

MIXER_STRUCTURED_OP(TransportCostOp)

//===----------------------------------------------------------------------===//
// SinkhornOp
//===----------------------------------------------------------------------===//

void SinkhornOp::build(OpBuilder &builder, OperationState &state,
                       KernelKind cost, int64_t iterations, Value x, Value y,
                       Value logA, Value logB, Value eps, Value fInit,
                       Value gInit, Value costInit) {
  build(builder, state,
        TypeRange{fInit.getType(), gInit.getType(), costInit.getType()},
        KernelKindAttr::get(builder.getContext(), cost),
        builder.getI64IntegerAttr(iterations), x, y, logA, logB, eps,
        ValueRange{fInit, gInit, costInit});
}

LogicalResult SinkhornOp::verify() {
  if (failed(verifyLogDomainCost(*this, "cost", getCost())))
    return failure();
  if (getIterations() <= 0)
    return emitOpError() << "attribute 'iterations' must be positive, got "
                         << getIterations();
  ShapeVerifier v(*this);
  if (failed(v.check(getX(), "x", {"N", "D"})) ||
      failed(v.check(getY(), "y", {"M", "D"})) ||
      failed(v.check(getLogA(), "log_a", {"N"})) ||
      failed(v.check(getLogB(), "log_b", {"M"})) ||
      failed(v.checkScalar(getEps(), "eps")))
    return failure();
  v.require(getEps(), "eps", ValueRule::Positive);
  if (failed(verifyOutsAndResults(*this, getOuts(), 3)) ||
      failed(v.check(getOuts()[0], "f", {"N"})) ||
      failed(v.check(getOuts()[1], "g", {"M"})) ||
      failed(v.checkScalar(getOuts()[2], "transport_cost")))
    return failure();
  return success();
}
