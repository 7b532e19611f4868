//===- TilingUtils.h - how the ops state their loops and maps ---*- C++ -*-===//

#ifndef MIXER_LIB_DIALECT_MIXER_IR_TILINGUTILS_H
#define MIXER_LIB_DIALECT_MIXER_IR_TILINGUTILS_H

#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringMap.h"

namespace mlir::mixer {

/// The loops and indexing maps of a structured op, with loops and operand
/// dims named as in the op descriptions ("x [B, L, H, P]"). Ops state it in a
/// few lines; MIXER_STRUCTURED_OP turns it into MixerStructuredOpInterface.
class OpStructure {
public:
  explicit OpStructure(MLIRContext *context) : context(context) {}

  /// Parallel loops that tiling may split.
  OpStructure &tiled(ArrayRef<StringRef> names);
  /// Parallel loops that tiling keeps whole (rows tied to run-time groups).
  OpStructure &whole(ArrayRef<StringRef> names);
  /// Sequential or summed loops, whole in every tile.
  OpStructure &reduction(ArrayRef<StringRef> names);
  /// A dim name that is no loop but an expression of the loops (the group
  /// of a head).
  void alias(StringRef name, AffineExpr expr) { aliases[name] = expr; }

  /// The index expression of a loop or alias name.
  AffineExpr expr(StringRef name) const;
  /// Appends the map of an operand with dims `dims`; nothing for an absent
  /// optional operand (null `value`).
  OpStructure &operand(Value value, ArrayRef<StringRef> dims);

  SmallVector<AffineMap> maps;
  SmallVector<utils::IteratorType> iteratorTypes;
  SmallVector<unsigned> tileableLoops;

private:
  OpStructure &add(ArrayRef<StringRef> names, utils::IteratorType type,
                   bool tileable);

  MLIRContext *context;
  llvm::StringMap<unsigned> loops;
  llvm::StringMap<AffineExpr> aliases;
  unsigned numSymbols = 0;

public:
  /// A symbol for a run-time quantity in an alias (heads per group).
  AffineExpr newSymbol() { return getAffineSymbolExpr(numSymbols++, context); }
};

/// Defines the methods of MixerStructuredOpInterface of `OpTy` from a
/// `static OpStructure structureOf(OpTy)` in the same file.
#define MIXER_STRUCTURED_OP(OpTy)                                              \
  SmallVector<AffineMap> OpTy::getIndexingMapsArray() {                        \
    return structureOf(*this).maps;                                            \
  }                                                                            \
  SmallVector<utils::IteratorType> OpTy::getIteratorTypesArray() {             \
    return structureOf(*this).iteratorTypes;                                   \
  }                                                                            \
  SmallVector<unsigned> OpTy::getTileableLoops() {                             \
    return structureOf(*this).tileableLoops;                                   \
  }

/// Fails (with a message on `op`) for a head tile of `headSize` that would
/// split a group across tiles unevenly. `members` names the heads in the
/// message.
LogicalResult checkHeadTile(Operation *op, int64_t headSize,
                            int64_t headsPerGroup, StringRef members = "heads");

} // namespace mlir::mixer

#endif // MIXER_LIB_DIALECT_MIXER_IR_TILINGUTILS_H
