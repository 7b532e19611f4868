//===- MoEShapes.h - shape checks shared by the MoE ops ---------*- C++ -*-===//
//
// The dispatched-slot rules (T*k rows, i32 permutations) that the forward
// MoE ops and their backward ops state alike; defined in MoEOps.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_LIB_DIALECT_MIXER_IR_MOESHAPES_H
#define MIXER_LIB_DIALECT_MIXER_IR_MOESHAPES_H

#include "ShapeVerifier.h"
#include "TilingUtils.h"

namespace mlir::mixer {

/// Checks an integer operand whose element type is fixed (i32 ids and
/// permutations, i64 group sizes), then its shape.
LogicalResult checkIntsOfWidth(ShapeVerifier &v, Value value, StringRef name,
                               ArrayRef<StringRef> dims, unsigned width);

/// Binds the symbol "T*k" (the rows of the dispatched slots) to T * k when
/// both are static.
LogicalResult bindSlots(ShapeVerifier &v);

/// With T dynamic but k and the T*k rows static, the rows must still be a
/// multiple of k.
LogicalResult checkSlotRows(ShapeVerifier &v, StringRef rowOperands,
                            StringRef kOperand);

/// The i32 permutation holds slot indices: T*k must fit in i32.
LogicalResult checkSlots(ShapeVerifier &v);

/// The inputs moe_combine and its backward op share: the weights [T, k]
/// first (they fix T and k, against which the T*k rows are checked), then
/// expert_out [T*k, N] and the i32 permutation [T*k].
LogicalResult checkCombineInputs(ShapeVerifier &v, Value expertOut,
                                 Value permutation, Value weights);

/// The checks of the T*k slots of moe_combine and its backward op, once
/// every operand has bound what it fixes.
LogicalResult checkCombineSlots(ShapeVerifier &v, Value permutation);

/// What a grouped op (grouped_matmul, grouped_swiglu and their backward ops)
/// declares once, for its verifier and its tiling: its operands and results,
/// and its loops. The rows T are tied to the groups E by the run-time
/// group_sizes, so T is never tiled.
struct GroupedSignature {
  /// The one tiled loop (the columns N or F, or K), and the summed ones.
  StringRef tiled;
  SmallVector<StringRef, 2> reduction;
  SmallVector<NamedOperand> inputs;
  SmallVector<NamedOperand, 3> results;
  /// The panel width W of packed weights [E, P, K, W] (mixer.pack_weights),
  /// 0 for weights [E, K, N]: W is a loop that tiles keep whole and the
  /// panels P are the tiled columns floordiv W.
  int64_t panelWidth = 0;

  LogicalResult verify(Operation *op) const;
  OpStructure structure(MLIRContext *context) const;
};

/// The group sizes [E] of a grouped op: integer counts within T.
NamedOperand groupSizesOperand(Value groupSizes);

/// Whether `weights` of a forward grouped op are packed panels
/// [E, P, K, W] (from mixer.pack_weights) rather than [E, K, N].
bool isPackedWeights(Value weights);

/// The weights `name` of a forward grouped op, [E, K, `columns`] or packed
/// [E, P, K, W].
NamedOperand groupedWeightsOperand(Value weights, StringRef name,
                                   StringRef columns);

/// Checks what the named dims cannot say of packed weights `name` (once
/// the operands have bound their dims): a static panel width W > 0 and
/// P = ceil(`columns` / W) panels, with `columns` static.
LogicalResult checkPackedWeights(ShapeVerifier &v, StringRef name,
                                 StringRef columns);

/// The inputs of grouped_matmul, which its backward op shares.
template <typename OpTy>
SmallVector<NamedOperand> groupedMatmulInputs(OpTy op) {
  return {{op.getLhs(), "lhs", {"T", "K"}},
          {op.getRhs(), "rhs", {"E", "K", "N"}},
          groupSizesOperand(op.getGroupSizes())};
}

/// The inputs of grouped_swiglu, which its backward op shares.
template <typename OpTy>
SmallVector<NamedOperand> groupedSwigluInputs(OpTy op) {
  return {{op.getX(), "x", {"T", "K"}},
          {op.getWGate(), "w_gate", {"E", "K", "F"}},
          {op.getWUp(), "w_up", {"E", "K", "F"}},
          groupSizesOperand(op.getGroupSizes())};
}

/// The verifier and the MixerStructuredOpInterface methods of a grouped op,
/// from a `static GroupedSignature signatureOf(OpTy)` in the same file.
#define MIXER_GROUPED_OP(OpTy)                                                 \
  LogicalResult OpTy::verify() { return signatureOf(*this).verify(*this); }    \
  static OpStructure structureOf(OpTy op) {                                    \
    return signatureOf(op).structure(op.getContext());                         \
  }                                                                            \
  MIXER_STRUCTURED_OP(OpTy)

} // namespace mlir::mixer

#endif // MIXER_LIB_DIALECT_MIXER_IR_MOESHAPES_H
