//===- GenerateVjp.cpp - the reverse-mode VJP of whole functions ----------===//
//
// @f(inputs..., outs...) -> results becomes, beside it,
//
//   @f_vjp(inputs..., cotangents of the results..., grad outs...) -> grads
//
// with one writable grad out per float tensor input (the C ABI of public
// functions). Its body recomputes the forward, then walks the recomputed
// ops in reverse, keeping one cotangent per value (summed over its uses),
// and finally copies each input's cotangent into its grad out.
//
//===----------------------------------------------------------------------===//

#include "mixer/Dialect/Mixer/IR/MixerInterfaces.h"
#include "mixer/Dialect/Mixer/IR/MixerOps.h"
#include "mixer/Dialect/Mixer/Transforms/Passes.h"
#include "mixer/Dialect/Mixer/Transforms/Transforms.h"
#include "mixer/Utils/LinalgBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir::mixer {
#define GEN_PASS_DEF_MIXERGENERATEVJPPASS
#include "mixer/Dialect/Mixer/Transforms/Passes.h.inc"
} // namespace mlir::mixer

using namespace mlir;
using namespace mlir::mixer;

namespace {

constexpr StringLiteral kVjpSuffix = "_vjp";
constexpr StringLiteral kWritable = "bufferization.writable";

bool isFloatTensor(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && isa<FloatType>(tensor.getElementType());
}

bool isWritable(func::FuncOp f, unsigned i) {
  auto attr = f.getArgAttrOfType<BoolAttr>(i, kWritable);
  return attr && attr.getValue();
}

/// The cotangents of the recomputed forward's values, summed over uses.
class Adjoints {
public:
  explicit Adjoints(ImplicitLocOpBuilder &b) : b(b), lb(b) {}

  void accumulate(Value v, Value d) {
    if (!v || !d || !isFloatTensor(v.getType()))
      return;
    Value &slot = adjoints[v];
    if (!slot) {
      slot = d;
      return;
    }
    AffineMap id = AffineMap::getMultiDimIdentityMap(
        cast<RankedTensorType>(v.getType()).getRank(), b.getContext());
    Value init = lb.empty(lb.sizesOf(slot),
                          cast<RankedTensorType>(v.getType()).getElementType());
    slot = lb.map({slot, d}, {id, id}, init,
                  [](ImplicitLocOpBuilder &ib, ValueRange args) {
                    return arith::AddFOp::create(ib, args[0], args[1])
                        .getResult();
                  });
  }

  Value lookup(Value v) const { return adjoints.lookup(v); }

private:
  ImplicitLocOpBuilder &b;
  LinalgBuilder lb;
  DenseMap<Value, Value> adjoints;
};

/// A tensor of zeros shaped like `like`.
Value zerosLike(LinalgBuilder &lb, Value like) {
  auto type = cast<RankedTensorType>(like.getType());
  return lb.filled(lb.sizesOf(like), type.getElementType(), 0.0);
}

/// The cotangents of the operands of `op` (one per operand, null: none)
/// from those of its results.
FailureOr<SmallVector<Value>> buildOpVjp(ImplicitLocOpBuilder &b, Operation *op,
                                         ArrayRef<Value> cotangents) {
  LinalgBuilder lb(b);
  SmallVector<Value> none(op->getNumOperands());
  if (auto differentiable = dyn_cast<DifferentiableOpInterface>(op))
    return differentiable.buildVjp(b, cotangents);
  // The routing ops' products are made of other ops.
  if (isa<MoeDispatchOp, TopkRouterOp>(op))
    return buildRoutingVjp(b, op, cotangents);
  return TypeSwitch<Operation *, FailureOr<SmallVector<Value>>>(op)
      .Case([&](linalg::GenericOp generic) {
        return buildGenericVjp(b, generic, cotangents);
      })
      // Constants and fresh tensors: nothing to propagate.
      .Case<linalg::FillOp, tensor::EmptyOp, bufferization::AllocTensorOp>(
          [&](Operation *) { return none; })
      .Case([&](tensor::ExtractSliceOp slice) {
        Value zeros = zerosLike(lb, slice.getSource());
        none[0] = tensor::InsertSliceOp::create(
            b, cotangents[0], zeros, slice.getMixedOffsets(),
            slice.getMixedSizes(), slice.getMixedStrides());
        return none;
      })
      .Case([&](tensor::InsertSliceOp insert) {
        // The slice gets the cotangent of its window; the destination that
        // of the rest.
        none[0] = tensor::ExtractSliceOp::create(
            b, insert.getSourceType(), cotangents[0], insert.getMixedOffsets(),
            insert.getMixedSizes(), insert.getMixedStrides());
        none[1] = tensor::InsertSliceOp::create(
            b, zerosLike(lb, insert.getSource()), cotangents[0],
            insert.getMixedOffsets(), insert.getMixedSizes(),
            insert.getMixedStrides());
        return none;
      })
      .Case([&](tensor::CastOp cast) {
        none[0] = tensor::CastOp::create(b, cast.getSource().getType(),
                                         cotangents[0]);
        return none;
      })
      .Default([&](Operation *) -> FailureOr<SmallVector<Value>> {
        op->emitError() << "mixer-generate-vjp cannot differentiate '"
                        << op->getName() << "'";
        return failure();
      });
}

/// Named linalg ops (elementwise, transpose, matmul) as generics, whose
/// scalar bodies buildGenericVjp differentiates.
LogicalResult generalizeNamedOps(func::FuncOp f) {
  IRRewriter rewriter(f.getContext());
  SmallVector<linalg::LinalgOp> named;
  f.walk([&](linalg::LinalgOp op) {
    if (!isa<linalg::GenericOp, linalg::FillOp>(op))
      named.push_back(op);
  });
  for (linalg::LinalgOp op : named) {
    rewriter.setInsertionPoint(op);
    if (failed(linalg::generalizeNamedOp(rewriter, op)))
      return op->emitError() << "mixer-generate-vjp cannot differentiate '"
                             << op->getName() << "'";
  }
  return success();
}

/// Emits @<f>_vjp after `f`.
LogicalResult generateVjp(func::FuncOp f, SymbolTable &symbols) {
  MLIRContext *ctx = f.getContext();
  if (!f.getBody().hasOneBlock())
    return f.emitError() << "mixer-generate-vjp cannot differentiate @"
                         << f.getSymName() << ": its body has several blocks";
  FunctionType type = f.getFunctionType();
  unsigned numArgs = type.getNumInputs(), numResults = type.getNumResults();
  // The writable `outs` are the last arguments, one per result.
  unsigned numOuts = 0;
  while (numOuts < numArgs && isWritable(f, numArgs - 1 - numOuts))
    ++numOuts;
  unsigned numInputs = numArgs - numOuts;
  if (numOuts && numOuts != numResults)
    return f.emitError() << "mixer-generate-vjp expects one writable outs "
                            "argument per result of @"
                         << f.getSymName() << ", got " << numOuts << " for "
                         << numResults << " results";
  for (unsigned i = 0; i < numOuts; ++i)
    if (type.getInput(numInputs + i) != type.getResult(i))
      return f.emitError() << "mixer-generate-vjp expects outs argument #"
                           << numInputs + i << " of @" << f.getSymName()
                           << " to have the type of result #" << i;
  for (Type t : llvm::concat<const Type>(type.getInputs(), type.getResults()))
    if (!isa<RankedTensorType>(t) && !t.isIntOrIndexOrFloat())
      return f.emitError() << "mixer-generate-vjp cannot differentiate @"
                           << f.getSymName() << ": it takes or returns " << t;

  SmallVector<unsigned> gradInputs;
  for (unsigned i = 0; i < numInputs; ++i)
    if (isFloatTensor(type.getInput(i)))
      gradInputs.push_back(i);
  SmallVector<Type> argTypes(type.getInputs().take_front(numInputs));
  llvm::append_range(argTypes, type.getResults());
  SmallVector<Type> gradTypes;
  for (unsigned i : gradInputs)
    gradTypes.push_back(type.getInput(i));
  llvm::append_range(argTypes, gradTypes);

  OpBuilder top(ctx);
  top.setInsertionPointAfter(f);
  auto vjp = func::FuncOp::create(top, f.getLoc(),
                                  (f.getSymName() + kVjpSuffix).str(),
                                  FunctionType::get(ctx, argTypes, gradTypes));
  symbols.insert(vjp);
  unsigned firstGrad = numInputs + numResults;
  for (unsigned k = 0; k < gradInputs.size(); ++k)
    vjp.setArgAttr(firstGrad + k, kWritable, BoolAttr::get(ctx, true));
  Block *entry = vjp.addEntryBlock();
  ImplicitLocOpBuilder b(f.getLoc(), ctx);
  b.setInsertionPointToStart(entry);
  LinalgBuilder lb(b);

  // The forward again, its `outs` fresh tensors of the cotangents' sizes,
  // from a copy of @f whose named linalg ops are generalized.
  OwningOpRef<func::FuncOp> generalized = f.clone();
  if (failed(generalizeNamedOps(*generalized)))
    return failure();
  f = *generalized;
  IRMapping mapping;
  for (unsigned i = 0; i < numInputs; ++i)
    mapping.map(f.getArgument(i), vjp.getArgument(i));
  for (unsigned i = 0; i < numOuts; ++i) {
    Value cotangent = vjp.getArgument(numInputs + i);
    auto tensor = cast<RankedTensorType>(cotangent.getType());
    mapping.map(f.getArgument(numInputs + i),
                lb.empty(lb.sizesOf(cotangent), tensor.getElementType()));
  }
  Block &body = f.getBody().front();
  for (Operation &op : body.without_terminator())
    b.clone(op, mapping);
  SmallVector<Operation *> forward =
      llvm::map_to_vector(*entry, [](Operation &op) { return &op; });

  Adjoints adjoints(b);
  b.setInsertionPointToEnd(entry);
  for (auto [i, result] : llvm::enumerate(body.getTerminator()->getOperands()))
    adjoints.accumulate(mapping.lookupOrDefault(result),
                        vjp.getArgument(numInputs + i));
  for (Operation *op : llvm::reverse(forward)) {
    SmallVector<Value> cotangents = llvm::map_to_vector(
        op->getResults(), [&](Value r) { return adjoints.lookup(r); });
    if (llvm::all_of(cotangents, [](Value v) { return !v; }))
      continue;
    b.setLoc(op->getLoc());
    FailureOr<SmallVector<Value>> operandCotangents =
        buildOpVjp(b, op, cotangents);
    if (failed(operandCotangents))
      return failure();
    for (auto [operand, cotangent] :
         llvm::zip_equal(op->getOperands(), *operandCotangents))
      adjoints.accumulate(operand, cotangent);
  }

  b.setLoc(f.getLoc());
  SmallVector<Value> grads;
  for (auto [k, i] : llvm::enumerate(gradInputs)) {
    Value out = vjp.getArgument(firstGrad + k);
    Value d = adjoints.lookup(vjp.getArgument(i));
    grads.push_back(d ? lb.copy(d, out) : lb.fill(out, 0.0));
  }
  func::ReturnOp::create(b, grads);

  // The forward values no cotangent needed.
  IRRewriter rewriter(ctx);
  (void)runRegionDCE(rewriter, vjp.getBody());
  return success();
}

struct GenerateVjpPass
    : public mixer::impl::MixerGenerateVjpPassBase<GenerateVjpPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<func::FuncOp> todo;
    for (auto f : module.getOps<func::FuncOp>()) {
      if (!f.isPublic() || f.isExternal() ||
          f->hasAttr(kGeneratedAttr) ||
          symbols.lookup((f.getSymName() + kVjpSuffix).str()))
        continue;
      todo.push_back(f);
    }
    for (func::FuncOp f : todo) {
      if (failed(generateVjp(f, symbols)))
        return signalPassFailure();
      symbols.lookup((f.getSymName() + kVjpSuffix).str())
          ->setAttr(kGeneratedAttr, UnitAttr::get(&getContext()));
    }
  }

  static constexpr StringLiteral kGeneratedAttr = "mixer.vjp";
};

} // namespace
