//===- ShapeContract.h - what an op requires of its operands ----*- C++ -*-===//
//
// Each op's verifier states its operands' shapes with named dimensions and
// the values some operands must hold (log-decays <= 0, a positive eps,
// expert ids below E). The verifier checks what is known statically; the
// same statement, recorded as a ShapeContract, drives the checks that
// mixer-insert-runtime-checks emits for what is only known when the code
// runs. The contract is written once, in the verifier.
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_DIALECT_MIXER_IR_SHAPECONTRACT_H
#define MIXER_DIALECT_MIXER_IR_SHAPECONTRACT_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/SmallVector.h"

#include <string>

namespace mlir::mixer {

/// A rule on the values an operand holds.
enum class ValueRule {
  /// Every element <= 0 (and not NaN): log-decays and log-gates.
  NonPositive,
  /// The 0-d operand is > 0 (and not NaN): eps, bandwidths.
  Positive,
  /// Every element in [0, size of `symbol`): indices.
  IndexBelow,
  /// Every element >= 0 and their sum <= size of `symbol`: group sizes.
  CountsWithin,
  /// Every element == 0: a cotangent the op has no gradient for (the
  /// potentials of mixer.sinkhorn_backward).
  Zero,
};

struct ShapeContract {
  /// One named dimension of an operand, or a symbol bound by an attribute
  /// (then `value` is null and `size` holds it).
  struct Dim {
    Value value;
    int64_t dim = 0;
    /// The static size, ShapedType::kDynamic if only known at run time.
    int64_t size = 0;
    std::string symbol;
    /// "'x' dim 1 (L)" or "attribute 'k'", as verifier messages say it.
    std::string what;
  };
  struct Rule {
    Value value;
    std::string operand;
    ValueRule rule;
    /// The bound of IndexBelow and CountsWithin.
    std::string symbol;
  };
  /// `product` = `lhs` * `rhs` (the T*k dispatched rows).
  struct Product {
    std::string product, lhs, rhs;
  };
  /// The size of `small` is at most the size of `large` (k <= E).
  struct AtMost {
    std::string small, large;
  };
  /// The size of `members` is a positive multiple of the size of `groups`.
  struct Multiple {
    std::string members, groups, membersWord;
  };

  llvm::SmallVector<Dim> dims;
  llvm::SmallVector<Rule> rules;
  llvm::SmallVector<Product> products;
  llvm::SmallVector<Multiple> multiples;
  llvm::SmallVector<AtMost> atMost;
  /// Symbols whose size must fit in i32 (slot indices).
  llvm::SmallVector<std::string> fitInI32;
};

/// Runs the verifier of `op` and returns the contract it states. Fails (with
/// the verifier's diagnostics) if `op` does not verify.
FailureOr<ShapeContract> getShapeContract(Operation *op);

} // namespace mlir::mixer

#endif // MIXER_DIALECT_MIXER_IR_SHAPECONTRACT_H
