//===- TilingUtils.cpp - how the ops state their loops and maps -----------===//

#include "TilingUtils.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::mixer;

OpStructure &OpStructure::add(ArrayRef<StringRef> names,
                              utils::IteratorType type, bool tileable) {
  assert(maps.empty() && "loops come before operands");
  for (StringRef name : names) {
    unsigned loop = iteratorTypes.size();
    loops[name] = loop;
    iteratorTypes.push_back(type);
    if (tileable)
      tileableLoops.push_back(loop);
  }
  return *this;
}

OpStructure &OpStructure::tiled(ArrayRef<StringRef> names) {
  return add(names, utils::IteratorType::parallel, true);
}

OpStructure &OpStructure::whole(ArrayRef<StringRef> names) {
  return add(names, utils::IteratorType::parallel, false);
}

OpStructure &OpStructure::reduction(ArrayRef<StringRef> names) {
  return add(names, utils::IteratorType::reduction, false);
}

AffineExpr OpStructure::expr(StringRef name) const {
  if (auto it = aliases.find(name); it != aliases.end())
    return it->second;
  auto it = loops.find(name);
  assert(it != loops.end() && "every operand dim is a loop or an alias");
  return getAffineDimExpr(it->second, context);
}

OpStructure &OpStructure::operand(Value value, ArrayRef<StringRef> dims) {
  if (!value)
    return *this;
  SmallVector<AffineExpr> exprs;
  for (StringRef dim : dims)
    exprs.push_back(expr(dim));
  maps.push_back(
      AffineMap::get(iteratorTypes.size(), numSymbols, exprs, context));
  return *this;
}

LogicalResult mlir::mixer::checkHeadTile(Operation *op, int64_t headSize,
                                         int64_t headsPerGroup,
                                         StringRef members) {
  if (headsPerGroup % headSize == 0 || headSize % headsPerGroup == 0)
    return success();
  return op->emitOpError() << "cannot tile " << members << " by " << headSize
                           << ": a tile must lie within one group or cover "
                           << "whole groups (" << headsPerGroup << " "
                           << members << " per group)";
}
