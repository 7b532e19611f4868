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

SmallVector<StringRef> mlir::mixer::kernelDims(bool batched,
                                               ArrayRef<StringRef> dims) {
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

LogicalResult mlir::mixer::verifyKernelFunction(Operation *op,
                                                KernelKind kind) {
  if (isKernelFunction(kind))
    return success();
  return op->emitOpError() << "attribute 'kernel' " << stringifyKernelKind(kind)
                           << " is a cost, not a kernel (use it with "
                              "mixer.kernel_lse or mixer.sinkhorn)";
}

//===----------------------------------------------------------------------===//
// KernelSignature
//===----------------------------------------------------------------------===//

KernelSignature KernelSignature::ofKernel(Operation *op, KernelKind kind,
                                          ValueRange outs) {
  KernelSignature sig(op, outs);
  sig.attrName = "kernel";
  sig.kind = kind;
  return sig;
}

KernelSignature KernelSignature::ofCost(Operation *op, StringRef attrName,
                                        KernelKind kind, ValueRange outs) {
  KernelSignature sig(op, outs);
  sig.attrName = attrName;
  sig.kind = kind;
  sig.costAttr = true;
  return sig;
}

KernelSignature &KernelSignature::unbatched() {
  batchable = false;
  return *this;
}

KernelSignature &KernelSignature::points(Value x, Value y) {
  return input(x, "x", {"N", "D"}).input(y, "y", {"M", "D"});
}

KernelSignature &KernelSignature::values(Value v) {
  return input(v, "v", {"M", "C"});
}

KernelSignature &KernelSignature::bandwidth(Value bandwidth) {
  std::optional<ValueRule> rule;
  if (kind != KernelKind::linear)
    rule = ValueRule::Positive;
  return input(bandwidth, "bandwidth", {}, rule);
}

KernelSignature &KernelSignature::eps(Value eps) {
  return input(eps, "eps", {}, ValueRule::Positive);
}

KernelSignature &KernelSignature::input(Value value, StringRef name,
                                        ArrayRef<StringRef> dims,
                                        std::optional<ValueRule> rule) {
  inputs.push_back({value, name, llvm::to_vector<4>(dims), rule});
  return *this;
}

KernelSignature &KernelSignature::result(StringRef name,
                                         ArrayRef<StringRef> dims) {
  size_t i = results.size();
  results.push_back(
      {i < outs.size() ? outs[i] : Value(), name, llvm::to_vector<4>(dims)});
  return *this;
}

KernelSignature &KernelSignature::loops(ArrayRef<StringRef> tiled,
                                        ArrayRef<StringRef> reduction) {
  tiledLoops.assign(tiled.begin(), tiled.end());
  reductionLoops.assign(reduction.begin(), reduction.end());
  return *this;
}

bool KernelSignature::isBatched() const {
  return batchable &&
         cast<RankedTensorType>(inputs.front().value.getType()).getRank() == 3;
}

SmallVector<NamedOperand>
KernelSignature::withBatch(ArrayRef<NamedOperand> operands, bool batched) {
  SmallVector<NamedOperand> result(operands);
  for (NamedOperand &operand : result)
    if (!operand.dims.empty())
      operand.dims = kernelDims(batched, operand.dims);
  return result;
}

LogicalResult KernelSignature::verify() const {
  if (failed(costAttr ? verifyLogDomainCost(op, attrName, kind)
                      : verifyKernelFunction(op, kind)))
    return failure();
  bool batched = false;
  if (batchable) {
    FailureOr<bool> fromX = batchedFromX(op, inputs.front().value);
    if (failed(fromX))
      return failure();
    batched = *fromX;
  }
  ShapeVerifier v(op);
  return verifyOperands(op, v, withBatch(inputs, batched), outs,
                        withBatch(results, batched));
}

OpStructure KernelSignature::structure() const {
  bool batched = isBatched();
  OpStructure s(op->getContext());
  s.tiled(kernelDims(batched, tiledLoops)).reduction(reductionLoops);
  for (ArrayRef<NamedOperand> operands : {ArrayRef(inputs), ArrayRef(results)})
    for (const NamedOperand &operand : withBatch(operands, batched))
      s.operand(operand.value, operand.dims);
  return s;
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

// Loops ((Bt,) N, C, M, D): a tile is a block of ((Bt,) N, C); it reads its
// rows of x, all of y and its columns of v, and sums over M and D inside.
static KernelSignature signatureOf(KernelMvOp op) {
  return KernelSignature::ofKernel(op, op.getKernel(), op.getOuts())
      .points(op.getX(), op.getY())
      .values(op.getV())
      .bandwidth(op.getBandwidth())
      .result("out", {"N", "C"})
      .loops({"N", "C"}, {"M", "D"});
}

MIXER_KERNEL_OP(KernelMvOp)

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

// Loops ((Bt,) N, M, D): a tile is a block of ((Bt,) N); it reads its rows
// of x and all of y and g, and the log-sum-exp over M stays inside.
static KernelSignature signatureOf(KernelLseOp op) {
  return KernelSignature::ofCost(op, "kernel", op.getKernel(), op.getOuts())
      .points(op.getX(), op.getY())
      .eps(op.getEps())
      .input(op.getG(), "g", {"M"})
      .result("out", {"N"})
      .loops({"N"}, {"M", "D"});
}

MIXER_KERNEL_OP(KernelLseOp)

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

// Loops ((Bt,) N, M, D): a tile is a block of ((Bt,) N); it reads its rows
// of x and log_u and all of y and log_v, and the sum over M stays inside.
static KernelSignature signatureOf(TransportCostOp op) {
  return KernelSignature::ofCost(op, "cost", op.getCost(), op.getOuts())
      .points(op.getX(), op.getY())
      .input(op.getLogU(), "log_u", {"N"})
      .input(op.getLogV(), "log_v", {"M"})
      .eps(op.getEps())
      .result("out", {"N"})
      .loops({"N"}, {"M", "D"});
}

MIXER_KERNEL_OP(TransportCostOp)

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
  if (getIterations() <= 0)
    return emitOpError() << "attribute 'iterations' must be positive, got "
                         << getIterations();
  return KernelSignature::ofCost(*this, "cost", getCost(), getOuts())
      .unbatched()
      .points(getX(), getY())
      .input(getLogA(), "log_a", {"N"})
      .input(getLogB(), "log_b", {"M"})
      .eps(getEps())
      .result("f", {"N"})
      .result("g", {"M"})
      .result("transport_cost", {})
      .verify();
}
