//===- ChunkedScanTest.cpp - the chunked-scan driver's order of steps -----===//
//
// Builds scans with the driver whose hooks are calls of external functions
// (@init, @chunk<segment>, @token<segment>, @final), at a static length,
// unrolls every loop and folds the index arithmetic, and reads back the
// calls in program order and the rows of the boundary states: which chunks
// and tokens run, in which order, and which state lands in which row,
// forward and in reverse, and with the heads inside the chunk loop.
//
//===----------------------------------------------------------------------===//

#include "mixer/Utils/ChunkedScan.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace mlir;
using namespace mlir::mixer;

namespace {

/// A call of `@name(args)` returning `results`.
ValueRange call(ImplicitLocOpBuilder &b, StringRef name, TypeRange results,
                ValueRange args) {
  return func::CallOp::create(b, name, results, args).getResults();
}

/// Hooks that only record what the driver asks for: one [4] output and one
/// [2] state, threaded through calls of external functions.
class TracingHooks final : public ChunkedScanHooks {
public:
  explicit TracingHooks(MLIRContext *ctx)
      : out(RankedTensorType::get({4}, Float32Type::get(ctx))),
        state(RankedTensorType::get({2}, Float32Type::get(ctx))) {}

  void init(LinalgBuilder &lb, ScanCarry &carry) override {
    carry.states.push_back(call(lb.builder(), "init", state, {batch, head})[0]);
  }
  void chunkShared(LinalgBuilder &lb, unsigned segment, Value t0) override {
    call(lb.builder(), "shared" + std::to_string(segment), state, {t0});
  }
  void chunkStep(LinalgBuilder &lb, unsigned segment, Value t0,
                 ScanCarry &carry) override {
    step(lb, "chunk" + std::to_string(segment), t0, carry);
  }
  void tokenStep(LinalgBuilder &lb, unsigned segment, Value t,
                 ScanCarry &carry) override {
    step(lb, "token" + std::to_string(segment), t, carry);
  }
  void finalize(LinalgBuilder &lb, ArrayRef<Value> states,
                MutableArrayRef<Value> outs) override {
    outs[1] = call(lb.builder(), "final", out, {states[0], outs[1]})[0];
  }

  RankedTensorType out, state;
  /// Whether the steps also take the head (heads inside the chunk loop).
  bool withHead = false;

private:
  void step(LinalgBuilder &lb, const std::string &name, Value t,
            ScanCarry &carry) {
    SmallVector<Value> args = {t};
    if (withHead)
      args.push_back(head);
    args.append({carry.outs[0], carry.states[0]});
    ValueRange r = call(lb.builder(), name, {out, state}, args);
    carry.outs[0] = r[0];
    carry.states[0] = r[1];
  }
};

class ChunkedScanTest : public ::testing::Test {
protected:
  ChunkedScanTest() {
    context
        .loadDialect<arith::ArithDialect, bufferization::BufferizationDialect,
                     func::FuncDialect, linalg::LinalgDialect, scf::SCFDialect,
                     tensor::TensorDialect>();
  }

  /// Builds the scan of `length` tokens over `heads` heads into @scan,
  /// unrolls it, and fills `calls` and `rows`.
  void run(int64_t length, int64_t heads, ChunkedScanSpec spec,
           ArrayRef<std::pair<int64_t, int64_t>> segments = {}) {
    OpBuilder builder(&context);
    Location loc = builder.getUnknownLoc();
    module = ModuleOp::create(loc);
    TracingHooks hooks(&context);
    hooks.withHead = spec.headsInner;
    ImplicitLocOpBuilder b(loc, builder);
    b.setInsertionPointToEnd(module->getBody());
    // The outputs: the stepped one, the final one.
    SmallVector<Type> outTypes = {hooks.out, hooks.out};
    if (!spec.boundaryStates.empty())
      outTypes.push_back(RankedTensorType::get(
          {1, heads, ShapedType::kDynamic, 2}, b.getF32Type()));
    declare(b, "init", {b.getIndexType(), b.getIndexType()}, {hooks.state});
    SmallVector<Type> stepArgs = {b.getIndexType()};
    if (spec.headsInner)
      stepArgs.push_back(b.getIndexType());
    stepArgs.append({hooks.out, hooks.state});
    for (StringRef name : {"chunk0", "chunk1", "token0", "token1"})
      declare(b, name, stepArgs, {hooks.out, hooks.state});
    for (StringRef name : {"shared0", "shared1"})
      declare(b, name, {b.getIndexType()}, {hooks.state});
    declare(b, "final", {hooks.state, hooks.out}, {hooks.out});
    auto func = func::FuncOp::create(
        b, "scan", b.getFunctionType({hooks.out, hooks.out}, outTypes));
    Block *entry = func.addEntryBlock();
    b.setInsertionPointToStart(entry);

    spec.batches = arith::ConstantIndexOp::create(b, 1);
    spec.heads = arith::ConstantIndexOp::create(b, heads);
    spec.length = arith::ConstantIndexOp::create(b, length);
    for (auto [begin, end] : segments)
      spec.segments.push_back({arith::ConstantIndexOp::create(b, begin),
                               arith::ConstantIndexOp::create(b, end)});
    SmallVector<Value> results =
        buildChunkedScan(b, spec, entry->getArguments(), hooks);
    func::ReturnOp::create(b, results);
    ASSERT_TRUE(succeeded(verify(*module)));

    unrollAll(func);
    ASSERT_TRUE(succeeded(verify(*module)));
    read(func);
  }

  /// An external function @name.
  static void declare(ImplicitLocOpBuilder &b, StringRef name, TypeRange inputs,
                      TypeRange results) {
    auto decl =
        func::FuncOp::create(b, name, b.getFunctionType(inputs, results));
    decl.setPrivate();
  }

  /// Folds the index arithmetic and unrolls the loops, innermost first,
  /// until none is left.
  void unrollAll(func::FuncOp func) {
    for (;;) {
      ASSERT_TRUE(
          succeeded(applyPatternsGreedily(func, FrozenRewritePatternSet())));
      SmallVector<scf::ForOp> loops;
      func.walk([&](scf::ForOp loop) { loops.push_back(loop); });
      if (loops.empty())
        return;
      for (scf::ForOp loop : loops) {
        std::optional<int64_t> lower =
            getConstantIntValue(loop.getLowerBound());
        std::optional<int64_t> upper =
            getConstantIntValue(loop.getUpperBound());
        ASSERT_TRUE(lower && upper) << "loop bounds do not fold";
        if (*upper <= *lower) {
          loop.replaceAllUsesWith(loop.getInitArgs());
          loop.erase();
          continue;
        }
        ASSERT_TRUE(succeeded(loopUnrollFull(loop)));
      }
    }
  }

  /// `callee(constant args)` for the call defining `value`.
  static std::string describe(Value value) {
    auto op = value.getDefiningOp<func::CallOp>();
    if (!op)
      return "?";
    std::string text = op.getCallee().str() + "(";
    for (Value arg : op.getOperands())
      if (std::optional<int64_t> c = getConstantIntValue(arg))
        text += (text.back() == '(' ? "" : ",") + std::to_string(*c);
    return text + ")";
  }

  /// The value a slice of stacked states reads: through the inserts into
  /// the stack, to the one at its offsets.
  static Value throughSlices(Value value) {
    auto extract = value.getDefiningOp<tensor::ExtractSliceOp>();
    if (!extract)
      return value;
    auto constants = [](ArrayRef<OpFoldResult> offsets) {
      return llvm::map_to_vector(offsets, [](OpFoldResult offset) {
        return getConstantIntValue(offset);
      });
    };
    Value stack = extract.getSource();
    while (auto insert = stack.getDefiningOp<tensor::InsertSliceOp>()) {
      if (constants(insert.getMixedOffsets()) ==
          constants(extract.getMixedOffsets()))
        return insert.getSource();
      stack = insert.getDest();
    }
    return value;
  }

  void read(func::FuncOp func) {
    calls.clear();
    rows.clear();
    inputs.clear();
    func.walk([&](func::CallOp op) {
      calls.push_back(describe(op->getResult(op->getNumResults() - 1)));
      // The state a step or final starts from.
      for (Value arg : op.getOperands())
        if (arg.getType() == RankedTensorType::get({2}, Float32Type::get(
                                                            &context)))
          inputs.push_back(calls.back() + " <- " + describe(throughSlices(arg)));
    });
    // The boundary rows: inserts into the rank-4 tensor.
    func.walk([&](tensor::InsertSliceOp op) {
      if (op.getDestType().getRank() != 4)
        return;
      std::optional<int64_t> head =
          getConstantIntValue(op.getMixedOffsets()[1]);
      std::optional<int64_t> row = getConstantIntValue(op.getMixedOffsets()[2]);
      rows.push_back("h" + std::to_string(head.value_or(-1)) + " row" +
                     std::to_string(row.value_or(-1)) + " = " +
                     describe(op.getSource()));
    });
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  std::vector<std::string> calls, rows, inputs;
};

using Strings = std::vector<std::string>;

ChunkedScanSpec chunksOf(int64_t chunkSize) {
  ChunkedScanSpec spec;
  spec.chunkSize = chunkSize;
  return spec;
}

} // namespace

TEST_F(ChunkedScanTest, ForwardRunsFullChunksThenTheTail) {
  run(/*length=*/10, /*heads=*/2, chunksOf(4));
  EXPECT_EQ(calls, (Strings{"init(0,0)", "chunk0(0)", "chunk0(4)", "token0(8)",
                            "token0(9)", "final()", "init(0,1)", "chunk0(0)",
                            "chunk0(4)", "token0(8)", "token0(9)", "final()"}));
}

TEST_F(ChunkedScanTest, ReverseRunsTheTailThenChunksFromLastToFirst) {
  ChunkedScanSpec spec = chunksOf(4);
  spec.reverse = true;
  run(/*length=*/10, /*heads=*/1, spec);
  EXPECT_EQ(calls, (Strings{"init(0,0)", "token0(9)", "token0(8)", "chunk0(4)",
                            "chunk0(0)", "final()"}));
}

TEST_F(ChunkedScanTest, ReverseWithoutTail) {
  ChunkedScanSpec spec = chunksOf(4);
  spec.reverse = true;
  run(/*length=*/12, /*heads=*/1, spec);
  EXPECT_EQ(calls, (Strings{"init(0,0)", "chunk0(8)", "chunk0(4)", "chunk0(0)",
                            "final()"}));
}

TEST_F(ChunkedScanTest, ShortSequencesUseTheTokenStepOnly) {
  ChunkedScanSpec spec = chunksOf(4);
  spec.recurrentThreshold = 5;
  run(/*length=*/5, /*heads=*/1, spec);
  EXPECT_EQ(calls, (Strings{"init(0,0)", "token0(0)", "token0(1)", "token0(2)",
                            "token0(3)", "token0(4)", "final()"}));
  spec.reverse = true;
  run(/*length=*/5, /*heads=*/1, spec);
  EXPECT_EQ(calls, (Strings{"init(0,0)", "token0(4)", "token0(3)", "token0(2)",
                            "token0(1)", "token0(0)", "final()"}));
  // Above the threshold, chunks again.
  spec.reverse = false;
  run(/*length=*/6, /*heads=*/1, spec);
  EXPECT_EQ(calls, (Strings{"init(0,0)", "chunk0(0)", "token0(4)", "token0(5)",
                            "final()"}));
}

TEST_F(ChunkedScanTest, SegmentsHaveTheirOwnChunksAndTails) {
  run(/*length=*/10, /*heads=*/1, chunksOf(4), {{0, 6}, {6, 10}});
  EXPECT_EQ(calls, (Strings{"init(0,0)", "chunk0(0)", "token0(4)", "token0(5)",
                            "chunk1(6)", "final()"}));
  ChunkedScanSpec spec = chunksOf(4);
  spec.reverse = true;
  run(/*length=*/10, /*heads=*/1, spec, {{0, 6}, {6, 10}});
  EXPECT_EQ(calls, (Strings{"init(0,0)", "chunk1(6)", "token0(5)", "token0(4)",
                            "chunk0(0)", "final()"}));
}

TEST_F(ChunkedScanTest, BoundaryStatesForward) {
  ChunkedScanSpec spec = chunksOf(4);
  spec.boundaryStates = {
      RankedTensorType::get({2}, Float32Type::get(&context))};
  run(/*length=*/10, /*heads=*/2, spec);
  // Row c: the state having scanned the tokens before c * 4.
  EXPECT_EQ(rows, (Strings{"h0 row0 = init(0,0)", "h0 row1 = chunk0(0)",
                           "h0 row2 = chunk0(4)", "h1 row0 = init(0,1)",
                           "h1 row1 = chunk0(0)", "h1 row2 = chunk0(4)"}));
}

TEST_F(ChunkedScanTest, BoundaryStatesReverse) {
  ChunkedScanSpec spec = chunksOf(4);
  spec.reverse = true;
  spec.boundaryStates = {
      RankedTensorType::get({2}, Float32Type::get(&context))};
  run(/*length=*/10, /*heads=*/1, spec);
  // Row c: the state having scanned the tokens from c * 4 on.
  EXPECT_EQ(rows, (Strings{"h0 row2 = token0(8)", "h0 row1 = chunk0(4)",
                           "h0 row0 = chunk0(0)"}));
  EXPECT_EQ(calls, (Strings{"init(0,0)", "token0(9)", "token0(8)", "chunk0(4)",
                            "chunk0(0)", "final()"}));
}

TEST_F(ChunkedScanTest, BoundaryStatesOfAShortSequence) {
  ChunkedScanSpec spec = chunksOf(4);
  spec.recurrentThreshold = 8;
  spec.boundaryStates = {
      RankedTensorType::get({2}, Float32Type::get(&context))};
  run(/*length=*/3, /*heads=*/1, spec);
  EXPECT_EQ(rows, (Strings{"h0 row0 = init(0,0)"}));
}

TEST_F(ChunkedScanTest, HeadsInsideTheChunkLoop) {
  ChunkedScanSpec spec = chunksOf(4);
  spec.headsInner = true;
  run(/*length=*/10, /*heads=*/2, spec);
  // Every head's init, then per chunk what its heads share and each head's
  // step, then per head its tail, then each head's final state.
  EXPECT_EQ(calls,
            (Strings{"init(0,0)", "init(0,1)", "shared0(0)", "chunk0(0,0)",
                     "chunk0(0,1)", "shared0(4)", "chunk0(4,0)", "chunk0(4,1)",
                     "token0(8,0)", "token0(9,0)", "token0(8,1)", "token0(9,1)",
                     "final()", "final()"}));
  // Each head steps its own state.
  EXPECT_EQ(inputs,
            (Strings{"chunk0(0,0) <- init(0,0)", "chunk0(0,1) <- init(0,1)",
                     "chunk0(4,0) <- chunk0(0,0)", "chunk0(4,1) <- chunk0(0,1)",
                     "token0(8,0) <- chunk0(4,0)", "token0(9,0) <- token0(8,0)",
                     "token0(8,1) <- chunk0(4,1)", "token0(9,1) <- token0(8,1)",
                     "final() <- token0(9,0)", "final() <- token0(9,1)"}));
}
