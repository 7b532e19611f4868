//===- FunctionBuilderTest.h - a fixture that builds ops in a function -*- C++ -*-===//
//
// What the dialect tests that build ops through the C++ builders share: a
// context with the dialects the builders and VJP models create, a module,
// and functions whose arguments are the operands.
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_TEST_UNIT_DIALECT_FUNCTIONBUILDERTEST_H
#define MIXER_TEST_UNIT_DIALECT_FUNCTIONBUILDERTEST_H

#include "mixer/Dialect/Mixer/IR/MixerOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

#include <string>

namespace mixer::test {

class FunctionBuilderTest : public ::testing::Test {
protected:
  FunctionBuilderTest() : builder(&context) {
    context.loadDialect<mlir::mixer::MixerDialect, mlir::func::FuncDialect,
                        mlir::tensor::TensorDialect,
                        mlir::linalg::LinalgDialect, mlir::arith::ArithDialect>();
    module = mlir::ModuleOp::create(builder.getUnknownLoc());
  }

  /// A new function (f0, f1, ...) whose arguments have `types`; the builder
  /// points into it.
  mlir::ValueRange args(llvm::ArrayRef<mlir::Type> types) {
    builder.setInsertionPointToEnd(module->getBody());
    auto func = mlir::func::FuncOp::create(
        builder, builder.getUnknownLoc(), "f" + std::to_string(functions++),
        builder.getFunctionType(types, {}));
    mlir::Block *entry = func.addEntryBlock();
    builder.setInsertionPointToStart(entry);
    return entry->getArguments();
  }

  mlir::RankedTensorType f32(llvm::ArrayRef<int64_t> shape) {
    return mlir::RankedTensorType::get(shape, builder.getF32Type());
  }
  mlir::RankedTensorType ints(llvm::ArrayRef<int64_t> shape, unsigned width) {
    return mlir::RankedTensorType::get(shape, builder.getIntegerType(width));
  }

  mlir::MLIRContext context;
  mlir::OpBuilder builder;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  int functions = 0;
};

} // namespace mixer::test

#endif // MIXER_TEST_UNIT_DIALECT_FUNCTIONBUILDERTEST_H
