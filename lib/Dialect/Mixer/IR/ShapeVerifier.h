//===- ShapeVerifier.h - named-dimension checks for verifiers ---*- C++ -*-===//
//
// Each op verifier states its operands' shapes with dimension symbols, as the
// op descriptions do ("x [B, L, H, P]"). The first static size seen binds a
// symbol; a later static size that disagrees is an error naming both
// operands. Dynamic sizes are left to run time.
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_LIB_DIALECT_MIXER_IR_SHAPEVERIFIER_H
#define MIXER_LIB_DIALECT_MIXER_IR_SHAPEVERIFIER_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/StringMap.h"
#include <optional>

namespace mlir::mixer {

class ShapeVerifier {
public:
  explicit ShapeVerifier(Operation *op) : op(op) {}

  /// Checks that `value` (called `name` in messages) is a ranked tensor whose
  /// rank is dims.size() and whose element type is f32, then binds or checks
  /// each dimension against its symbol. A symbol "_" matches anything.
  LogicalResult check(Value value, StringRef name, ArrayRef<StringRef> dims);
  /// Same for an integer operand: i32 or i64 elements.
  LogicalResult checkInts(Value value, StringRef name, ArrayRef<StringRef> dims);
  /// Checks a 0-d f32 tensor (a run-time scalar such as a bandwidth).
  LogicalResult checkScalar(Value value, StringRef name);

  /// The static size bound to `symbol`, if any.
  std::optional<int64_t> size(StringRef symbol) const;
  /// Binds `symbol` to `value` or checks it, naming `what` in the message.
  LogicalResult bind(StringRef symbol, int64_t value, StringRef what);

  InFlightDiagnostic error() { return op->emitOpError(); }

private:
  LogicalResult checkShape(Value value, StringRef name,
                           ArrayRef<StringRef> dims);

  Operation *op;
  /// Symbol -> (size, operand that bound it).
  llvm::StringMap<std::pair<int64_t, std::string>> bound;
};

/// Verifies the `outs` operands of a structured op: `count` of them, each
/// matched by the result of the same position.
LogicalResult verifyOutsAndResults(Operation *op, ValueRange outs,
                                   size_t count);

} // namespace mlir::mixer

#endif // MIXER_LIB_DIALECT_MIXER_IR_SHAPEVERIFIER_H
