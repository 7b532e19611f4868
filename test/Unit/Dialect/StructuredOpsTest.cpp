//===- StructuredOpsTest.cpp - loops and indexing maps of the mixer ops ---===//
//
// Checks the MixerStructuredOpInterface of some ops (their loops, which are
// tileable, and the maps, including the head-to-group map of a grouped scan
// for static, single and dynamic groups) and the fusion queries of the
// TilingInterface model built from them.
//
//===----------------------------------------------------------------------===//

#include "mixer/Dialect/Mixer/IR/MixerOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::mixer;

namespace {

class StructuredOpsTest : public ::testing::Test {
protected:
  StructuredOpsTest() {
    context.loadDialect<MixerDialect, func::FuncDialect,
                        tensor::TensorDialect>();
  }

  /// The first op of `OpTy` in the function of `source`.
  template <typename OpTy> OpTy parse(StringRef source) {
    module = parseSourceString<ModuleOp>(source, &context);
    OpTy found;
    if (module)
      module->walk([&](OpTy op) { found = op; });
    return found;
  }

  static std::string str(AffineMap map) {
    std::string text;
    llvm::raw_string_ostream(text) << map;
    return text;
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

std::string ssdSource(StringRef heads, StringRef groups) {
  std::string x = ("tensor<2x100x" + heads + "x16xf32>").str();
  std::string la = ("tensor<2x100x" + heads + "xf32>").str();
  std::string b = ("tensor<2x100x" + groups + "x32xf32>").str();
  std::string s = ("tensor<2x" + heads + "x16x32xf32>").str();
  return "func.func @f(%x: " + x + ", %la: " + la + ", %b: " + b + ", %c: " +
         b + ", %y0: " + x + ", %s0: " + s + ") {\n  %y, %s = mixer.ssd " +
         "chunk_size(64) ins(%x, %la, %b, %c : " + x + ", " + la + ", " + b +
         ", " + b + ") outs(%y0, %s0 : " + x + ", " + s + ") -> " + x + ", " +
         s + "\n  return\n}\n";
}

TEST_F(StructuredOpsTest, SsdMapsHeadsToGroups) {
  // Loops (B, H, P, L, N); 8 heads in 2 groups: head h reads group h / 4.
  auto op = parse<SsdOp>(ssdSource("8", "2"));
  ASSERT_TRUE(op);
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  ASSERT_EQ(maps.size(), 6u);
  EXPECT_EQ(str(maps[0]), "(d0, d1, d2, d3, d4) -> (d0, d3, d1, d2)");
  EXPECT_EQ(str(maps[2]),
            "(d0, d1, d2, d3, d4) -> (d0, d3, d1 floordiv 4, d4)");
  EXPECT_EQ(str(maps[5]), "(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)");
  EXPECT_EQ(op.getTileableLoops(), (SmallVector<unsigned>{0, 1, 2}));
  SmallVector<utils::IteratorType> types = op.getIteratorTypesArray();
  EXPECT_EQ(types[0], utils::IteratorType::parallel);
  EXPECT_EQ(types[3], utils::IteratorType::reduction);
  auto tiling = cast<TilingInterface>(op.getOperation());
  EXPECT_EQ(tiling.getLoopIteratorTypes().size(), 3u);
}

TEST_F(StructuredOpsTest, SsdSingleGroupIsReadWhole) {
  auto op = parse<SsdOp>(ssdSource("?", "1"));
  ASSERT_TRUE(op);
  EXPECT_EQ(str(op.getIndexingMapsArray()[2]),
            "(d0, d1, d2, d3, d4) -> (d0, d3, 0, d4)");
}

TEST_F(StructuredOpsTest, SsdDynamicHeadsPerGroupIsASymbol) {
  auto op = parse<SsdOp>(ssdSource("?", "2"));
  ASSERT_TRUE(op);
  EXPECT_EQ(str(op.getIndexingMapsArray()[2]),
            "(d0, d1, d2, d3, d4)[s0] -> (d0, d3, d1 floordiv s0, d4)");
}

TEST_F(StructuredOpsTest, GroupedMatmulKeepsRowsWhole) {
  auto op = parse<GroupedMatmulOp>(
      "func.func @f(%l: tensor<64x32xf32>, %r: tensor<4x32x48xf32>, "
      "%g: tensor<4xi64>, %o: tensor<64x48xf32>) {\n"
      "  %p = mixer.grouped_matmul ins(%l, %r, %g : tensor<64x32xf32>, "
      "tensor<4x32x48xf32>, tensor<4xi64>) outs(%o : tensor<64x48xf32>) -> "
      "tensor<64x48xf32>\n  return\n}\n");
  ASSERT_TRUE(op);
  // Loops (N, T, E, K): only N is tileable; T is parallel but whole.
  EXPECT_EQ(op.getTileableLoops(), (SmallVector<unsigned>{0}));
  EXPECT_EQ(op.getIteratorTypesArray()[1], utils::IteratorType::parallel);
  EXPECT_EQ(str(op.getIndexingMapsArray()[1]),
            "(d0, d1, d2, d3) -> (d2, d3, d0)");
  // A consumer may take any column tile of `out`, but only all its rows.
  auto tiling = cast<TilingInterface>(op.getOperation());
  Builder b(&context);
  EXPECT_TRUE(tiling.isOpFusableWithConsumerSlice(
      0, {b.getIndexAttr(0), b.getIndexAttr(16)},
      {b.getIndexAttr(64), b.getIndexAttr(16)}));
  EXPECT_FALSE(tiling.isOpFusableWithConsumerSlice(
      0, {b.getIndexAttr(16), b.getIndexAttr(0)},
      {b.getIndexAttr(16), b.getIndexAttr(48)}));
  // A producer of lhs may fuse only when its tile is all of lhs.
  EXPECT_FALSE(tiling.isOpFusableWithProducerSlices(
      {0}, {{b.getIndexAttr(0), b.getIndexAttr(0)}},
      {{b.getIndexAttr(16), b.getIndexAttr(32)}}));
}

} // namespace
