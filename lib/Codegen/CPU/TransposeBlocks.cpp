//===- TransposeBlocks.cpp - 8 x 8 f32 transposes as register shuffles ----===//
//
// A vector.transpose of 8 x 8 f32 (the blocks of mixer-vectorize-cpu's
// transposes where a vector holds 8 lanes, or a dim is 8) as 24 two-source
// shuffles of 8-lane rows in three rounds: interleave pairs of rows, combine
// pairs of pairs within each 128-bit half, then swap halves. Each shuffle
// is one AVX instruction (vunpcklps/vunpckhps, vshufps, vperm2f128); the
// generic lowering moves the 64 elements one by one. MLIR's x86vector AVX2
// transpose lowering does the same but emits vblendps as inline assembly,
// an instruction fixed in the IR; plain vector.shuffles leave the choice
// to LLVM's lowering for the target.
//
//===----------------------------------------------------------------------===//

#include "mixer/Codegen/CPU/Transforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;

namespace {

/// The 8 lanes of a two-source shuffle: `pick(i)` is the lane of the
/// concatenation [a, b] (0-15) that lane i takes.
template <typename Pick>
Value shuffle8(PatternRewriter &rewriter, Location loc, Value a, Value b,
               Pick pick) {
  SmallVector<int64_t, 8> mask;
  for (int64_t i = 0; i < 8; ++i)
    mask.push_back(pick(i));
  return vector::ShuffleOp::create(rewriter, loc, a, b, mask);
}

struct Transpose8x8F32 final : OpRewritePattern<vector::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::TransposeOp op,
                                PatternRewriter &rewriter) const override {
    VectorType type = op.getSourceVectorType();
    if (type.getShape() != ArrayRef<int64_t>{8, 8} ||
        !type.getElementType().isF32() || type.isScalable() ||
        op.getPermutation() != ArrayRef<int64_t>{1, 0})
      return failure();
    Location loc = op.getLoc();
    SmallVector<Value, 8> rows;
    for (int64_t r = 0; r < 8; ++r)
      rows.push_back(
          vector::ExtractOp::create(rewriter, loc, op.getVector(), r));

    // 1. Rows 2p and 2p + 1 interleaved within each 128-bit half: their
    //    elements 0, 1 | 4, 5 (unpacklo), then 2, 3 | 6, 7 (unpackhi).
    SmallVector<Value, 8> pairs;
    for (int64_t p = 0; p < 4; ++p)
      for (int64_t high = 0; high < 2; ++high)
        pairs.push_back(shuffle8(
            rewriter, loc, rows[2 * p], rows[2 * p + 1], [&](int64_t i) {
              int64_t half = i / 4, j = i % 4;
              return 4 * half + 2 * high + j / 2 + (j % 2) * 8;
            }));
    // 2. Two interleaved pairs of rows combined within each half: lanes
    //    0-3 of quad q hold column q of the four rows (of a group of four),
    //    lanes 4-7 column q + 4.
    SmallVector<Value, 8> quads;
    for (int64_t g = 0; g < 2; ++g)
      for (int64_t high = 0; high < 2; ++high)
        for (int64_t side = 0; side < 2; ++side)
          quads.push_back(shuffle8(rewriter, loc, pairs[4 * g + high],
                                   pairs[4 * g + 2 + high], [&](int64_t i) {
                                     int64_t half = i / 4, j = i % 4;
                                     return 4 * half + 2 * side + j % 2 +
                                            (j / 2) * 8;
                                   }));
    // 3. Column c: rows 0-3 from the quad of the first four rows, rows 4-7
    //    from that of the last four, each in the half that holds c.
    Value result = arith::ConstantOp::create(rewriter, loc, type,
                                             rewriter.getZeroAttr(type));
    for (int64_t c = 0; c < 8; ++c) {
      int64_t half = c / 4, quad = c % 4;
      Value column =
          shuffle8(rewriter, loc, quads[quad], quads[4 + quad],
                   [&](int64_t i) { return 4 * half + i % 4 + (i / 4) * 8; });
      result = vector::InsertOp::create(rewriter, loc, column, result, c);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void mlir::mixer::populateTransposeBlockPatterns(RewritePatternSet &patterns) {
  patterns.add<Transpose8x8F32>(patterns.getContext(), /*benefit=*/2);
}
