//===- LinalgBuilder.h - small builders of linalg ops on tensors -*- C++ -*-===//
//
// The op lowerings are written as a handful of tensor-level steps
// (contractions, elementwise maps, slices of the time-major operands). These
// helpers keep each step one line and emit every contraction in the one
// shape the CPU vectorizer maps to outer-product FMAs: iteration dims
// (i, j, k), i and j parallel, k the reduction, output indexed (i, j), and
// a right-hand side indexed (k, j).
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_UTILS_LINALGBUILDER_H
#define MIXER_UTILS_LINALGBUILDER_H

#include "mlir/IR/AffineMap.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

namespace mlir::mixer {

/// How the left-hand side of a contraction is stored.
enum class Lhs {
  RowMajor,   ///< out[i, j] += lhs[i, k] * rhs[k, j]
  Transposed, ///< out[i, j] += lhs[k, i] * rhs[k, j]
};

class LinalgBuilder {
public:
  explicit LinalgBuilder(ImplicitLocOpBuilder &b) : b(b) {}

  /// A tensor.empty of `sizes` (static or dynamic) and element type `elt`.
  Value empty(ArrayRef<OpFoldResult> sizes, Type elt);
  /// A newly allocated tensor of `sizes` filled with the constant `value`.
  Value filled(ArrayRef<OpFoldResult> sizes, Type elt, double value);
  /// A newly allocated copy of `value`.
  Value copyToNew(Value value);
  /// `src` copied into `dest` (in place).
  Value copy(Value src, Value dest);
  /// `dest` filled with the constant `value` (in place).
  Value fill(Value dest, double value);
  /// The sizes of `value` as OpFoldResults.
  SmallVector<OpFoldResult> sizesOf(Value value);

  /// acc[i, j] += sum_k lhs(i, k) * rhs[k, j].
  Value contract(Value lhs, Value rhs, Value acc, Lhs lhsLayout);

  /// The causal forms of contract (row-major lhs), in row blocks of
  /// `block` rows (whole when `block` is 0 or does not split the rows into
  /// equal blocks), skipping the blocks above the diagonal:
  /// - contractLowerLhs: lhs [n, n] is zero above its diagonal, so row
  ///   block r reads only its first (r + 1) * block columns (and as many
  ///   rows of rhs);
  /// - contractLowerPart: only the entries acc[i, j] with j in the row
  ///   block of i or before it are computed (the causal scores); the
  ///   others keep acc's values.
  Value contractLowerLhs(Value lhs, Value rhs, Value acc, int64_t block);
  /// The row blocks of `block` rows these forms split `rows` rows into, or
  /// 0 when they leave them whole.
  static int64_t rowBlocks(int64_t rows, int64_t block);

  /// `rows`, whose defining op (a contraction, a copy or an elementwise op
  /// over rows) is asked to prefetch, at each step of its loop over rows
  /// (a contraction's K loop), the row `ahead` further of every buffer of
  /// the caller's it reads or writes a row of (mixer-vectorize-cpu carries
  /// the request to that loop, mixer-prefetch-rows emits the prefetches).
  static Value prefetchingRowsAhead(Value rows, int64_t ahead);
  Value contractLowerPart(Value lhs, Value rhs, Value acc, int64_t block);

  /// An input of mapLowerBlocks: a [n] tensor read at the row t or at the
  /// column s, or a [n, n] one read at (t, s).
  struct TriangleInput {
    enum Kind { Row, Column, Both };
    Value value;
    Kind kind;
  };
  /// A map (as `map`) over the [n, n] tensor `init` restricted to its row
  /// blocks up to the diagonal, as contractLowerPart: row block r covers
  /// the columns [0, (r + 1) * block); the entries above keep init's
  /// values (all of init when `block` is 0 or does not split n). `body`
  /// gets the row t and column s in init, then the input scalars and the
  /// init scalar.
  Value mapLowerBlocks(
      ArrayRef<TriangleInput> inputs, Value init, int64_t block,
      function_ref<Value(ImplicitLocOpBuilder &, Value t, Value s, ValueRange)>
          body);

  /// The causal decays of the chunked scans applied in place to the
  /// scores [n, n] in the row blocks of mapLowerBlocks:
  ///   scores[t, s] *= factor * exp(min(cum[t] - cum[s], 0))  for s <= t,
  ///   0 above the diagonal,
  /// with `cum` [n] the (f64, non-increasing) prefix sums of log decays.
  /// One exp per entry on the diagonal blocks only: below them, for the
  /// row block starting at row p, exp(cum[t] - cum[s]) = exp(cum[t] -
  /// cum[p]) * exp(cum[p] - cum[s]) with s < p <= t, both exponents <= 0,
  /// so one exp per row and one per column.
  Value decayLowerBlocks(Value cum, Value scores, int64_t block, double factor);

  /// A parallel linalg.generic over the iteration space of `init` with one
  /// indexing map per input (and the identity for `init`); `body` maps the
  /// input scalars (and the init scalar, last) to the result.
  Value map(ValueRange inputs, ArrayRef<AffineMap> inputMaps, Value init,
            function_ref<Value(ImplicitLocOpBuilder &, ValueRange)> body);

  /// rows[t, :] * factors[t] for rows [T, D] and factors [T]: into a new
  /// tensor, or into `dest` (the rows themselves, for an in-place update).
  Value scaleRows(Value rows, Value factors, Value dest = Value());

  /// acc += the sum over the `reductions` dims of body(inputs): a
  /// linalg.generic over accMap.getNumDims() dims with the inputs' `maps`
  /// and `accMap`; `body` maps the input scalars to the term added.
  Value sumInto(ValueRange inputs, ArrayRef<AffineMap> maps, Value acc,
                AffineMap accMap, ArrayRef<unsigned> reductions,
                function_ref<Value(ImplicitLocOpBuilder &, ValueRange)> body);

  /// The values an iteration of `loop` carries on, from the iteration index
  /// and the values it was given.
  using LoopBody =
      function_ref<SmallVector<Value>(LinalgBuilder &, Value iv, ValueRange)>;
  /// An scf.for over [lower, upper) with step `step` carrying `init`; `body`
  /// builds one iteration inside the loop. Returns the loop's results.
  SmallVector<Value> loop(Value lower, Value upper, Value step, ValueRange init,
                          LoopBody body);

  /// out[j, i] = in[i, j].
  Value transpose(Value in);

  /// The slice of `value` at `offsets` of `sizes` (unit strides), reshaped
  /// by dropping unit dims to `resultShape` (rank-reducing).
  Value slice(Value value, ArrayRef<OpFoldResult> offsets,
              ArrayRef<OpFoldResult> sizes, ArrayRef<int64_t> resultShape);
  /// Inserts `tile` into `dest` at `offsets`, `sizes` (rank-expanding).
  Value insert(Value tile, Value dest, ArrayRef<OpFoldResult> offsets,
               ArrayRef<OpFoldResult> sizes);

  /// exp(min(v, 0)) for a float scalar `v`: every decay of the scans is the
  /// exp of a value that the math keeps <= 0.
  Value expOfNonPositive(Value v);

  /// factor * exp(min(f32(sum), 0)) for an f64 sum of log decays (one
  /// prefixSumF64 sum or the difference of two): the decay over that
  /// segment, at most `factor` however the sums round.
  Value decayOfSum(Value sum, double factor = 1.0);

  /// The inclusive prefix sums of the 1-D f32 tensor `a` (static size), in
  /// f64 so that differences of two sums (segment sums) keep f32 accuracy:
  /// returns (the total, the tensor of sums).
  std::pair<Value, Value> prefixSumF64(Value a);

  /// Affine maps over `numDims` dims selecting `results`.
  AffineMap dims(unsigned numDims, ArrayRef<unsigned> results);

  ImplicitLocOpBuilder &builder() { return b; }

private:
  ImplicitLocOpBuilder &b;
};

} // namespace mlir::mixer

#endif // MIXER_UTILS_LINALGBUILDER_H
