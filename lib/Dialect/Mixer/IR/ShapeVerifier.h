//===- ShapeVerifier.h - named-dimension checks for verifiers ---*- C++ -*-===//
//
// Each op verifier states its operands' shapes with dimension symbols, as the
// op descriptions do ("x [B, L, H, P]"). The first static size seen binds a
// symbol; a later static size that disagrees is an error naming both
// operands. Dynamic sizes are left to run time: getShapeContract records
// every named dimension and value rule a verifier states, and
// mixer-insert-runtime-checks checks them when the code runs.
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_LIB_DIALECT_MIXER_IR_SHAPEVERIFIER_H
#define MIXER_LIB_DIALECT_MIXER_IR_SHAPEVERIFIER_H

#include "mixer/Dialect/Mixer/IR/ShapeContract.h"

#include "mlir/IR/Operation.h"
#include "llvm/ADT/StringMap.h"
#include <optional>

namespace mlir::mixer {

class ShapeVerifier {
public:
  explicit ShapeVerifier(Operation *op);

  /// Checks that `value` (called `name` in messages) is a ranked tensor whose
  /// rank is dims.size() and whose element type is f32, then binds or checks
  /// each dimension against its symbol. A symbol "_" matches anything.
  LogicalResult check(Value value, StringRef name, ArrayRef<StringRef> dims);
  /// Same for an integer operand: i32 or i64 elements.
  LogicalResult checkInts(Value value, StringRef name,
                          ArrayRef<StringRef> dims);
  /// Checks a 0-d f32 tensor (a run-time scalar such as a bandwidth).
  LogicalResult checkScalar(Value value, StringRef name);

  /// The static size bound to `symbol`, if any.
  std::optional<int64_t> size(StringRef symbol) const;
  /// Binds `symbol` to `value` or checks it, naming `what` in the message.
  LogicalResult bind(StringRef symbol, int64_t value, StringRef what);
  /// Same for a size an attribute fixes ("attribute 'k'"); dynamic sizes of
  /// the symbol are then checked against it at run time.
  LogicalResult bindAttribute(StringRef symbol, int64_t value, StringRef what);

  /// States a rule on the values of `value` (called `name`), checked when the
  /// code runs; `symbol` names the bound of IndexBelow and CountsWithin.
  void require(Value value, StringRef name, ValueRule rule,
               StringRef symbol = {});
  /// States that symbol `product` is `lhs` * `rhs`; the verifier binds it
  /// when both are static (bind), the run-time checks otherwise.
  void requireProduct(StringRef product, StringRef lhs, StringRef rhs);
  /// States that `members` is a multiple of a positive `groups`.
  void requireMultiple(StringRef members, StringRef groups,
                       StringRef membersWord);
  /// States that the size of `small` is at most that of `large`.
  void requireAtMost(StringRef small, StringRef large);
  /// States that the size of `symbol` fits in i32.
  void requireFitsInI32(StringRef symbol);

  InFlightDiagnostic error() { return op->emitOpError(); }

private:
  LogicalResult checkShape(Value value, StringRef name,
                           ArrayRef<StringRef> dims);
  /// checkShape, then that `accepts` the element type, else an error naming
  /// the element types it must have (`expected`).
  LogicalResult checkShapeAndElements(Value value, StringRef name,
                                      ArrayRef<StringRef> dims,
                                      function_ref<bool(Type)> accepts,
                                      StringRef expected);

  Operation *op;
  /// Where getShapeContract collects what this verifier states (or null).
  ShapeContract *contract;
  /// Symbol -> (size, operand that bound it).
  llvm::StringMap<std::pair<int64_t, std::string>> bound;
};

/// Verifies the `outs` operands of a structured op: `count` of them, each
/// matched by the result of the same position.
LogicalResult verifyOutsAndResults(Operation *op, ValueRange outs,
                                   size_t count);

/// An operand or result of an op as its signature states it: its name and
/// dims as in the op description ("x [B, L, H, P]").
struct NamedOperand {
  /// Null for an absent optional operand.
  Value value;
  StringRef name;
  SmallVector<StringRef, 4> dims;
  /// What its values must satisfy when the code runs (log-decays <= 0).
  std::optional<ValueRule> rule = std::nullopt;
  /// The bound of an IndexBelow or CountsWithin rule.
  StringRef ruleBound = {};
  /// An integer operand (i32 or i64 elements) rather than an f32 one.
  bool ints = false;
};

/// The entries of results named and shaped as in `results`, each with its
/// `outs` operand (null when there are too few, which the verifier reports).
SmallVector<NamedOperand, 2>
namedResults(ValueRange outs,
             ArrayRef<std::pair<StringRef, ArrayRef<StringRef>>> results);

/// Checks every present input of `inputs` (stating its rule), then that
/// `outs` has one operand per entry of `results` and each result against
/// its entry, binding the dimension symbols in `v`.
LogicalResult verifyOperands(Operation *op, ShapeVerifier &v,
                             ArrayRef<NamedOperand> inputs, ValueRange outs,
                             ArrayRef<NamedOperand> results);

} // namespace mlir::mixer

#endif // MIXER_LIB_DIALECT_MIXER_IR_SHAPEVERIFIER_H
