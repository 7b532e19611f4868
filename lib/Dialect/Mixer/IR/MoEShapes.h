//===- MoEShapes.h - shape checks shared by the MoE ops ---------*- C++ -*-===//
//
// The dispatched-slot rules (T*k rows, i32 permutations) that the forward
// MoE ops and their backward ops state alike; defined in MoEOps.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_LIB_DIALECT_MIXER_IR_MOESHAPES_H
#define MIXER_LIB_DIALECT_MIXER_IR_MOESHAPES_H

#include "ShapeVerifier.h"

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

} // namespace mlir::mixer

#endif // MIXER_LIB_DIALECT_MIXER_IR_MOESHAPES_H
