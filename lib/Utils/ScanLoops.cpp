//===- ScanLoops.cpp - loop scaffolding of the scan lowerings -------------===//

#include "mixer/Utils/ScanLoops.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::mixer;

SmallVector<Value> mlir::mixer::buildBatchHeadLoops(ImplicitLocOpBuilder &b,
                                                    Value batches, Value heads,
                                                    ValueRange outs,
                                                    BatchHeadBody body) {
  Value c0 = arith::ConstantIndexOp::create(b, 0);
  Value c1 = arith::ConstantIndexOp::create(b, 1);
  auto batchLoop = scf::ForOp::create(
      b, c0, batches, c1, outs,
      [&](OpBuilder &bb, Location bl, Value batch, ValueRange outsB) {
        auto headLoop = scf::ForOp::create(
            bb, bl, c0, heads, c1, outsB,
            [&](OpBuilder &hb, Location hl, Value head, ValueRange outsH) {
              scf::YieldOp::create(hb, hl, body(hb, hl, batch, head, outsH));
            });
        scf::YieldOp::create(bb, bl, headLoop.getResults());
      });
  return llvm::to_vector_of<Value>(batchLoop.getResults());
}

scf::ForOp mlir::mixer::buildOutStateLoop(ImplicitLocOpBuilder &b, Value lower,
                                          Value upper, Value out, Value state,
                                          OutStateBody body) {
  Value c1 = arith::ConstantIndexOp::create(b, 1);
  return scf::ForOp::create(
      b, lower, upper, c1, ValueRange{out, state},
      [&](OpBuilder &nb, Location loc, Value iv, ValueRange acc) {
        ImplicitLocOpBuilder ib(loc, nb);
        LinalgBuilder lb(ib);
        auto [nextOut, nextState] = body(lb, iv, acc[0], acc[1]);
        scf::YieldOp::create(ib, ValueRange{nextOut, nextState});
      });
}
