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

LogicalResult mlir::mixer::checkHeadTile(Operation *op, OpFoldResult headSize,
                                         int64_t headsPerGroup,
                                         StringRef members) {
  if (headsPerGroup == 1)
    return success();
  // A size that is not a constant is the partial last tile of a tile size
  // that does not divide the heads: it may split a group.
  std::optional<int64_t> size = getConstantIntValue(headSize);
  if (!size)
    return op->emitOpError()
           << "cannot tile " << members << " by a size that does not divide "
           << "them (" << headsPerGroup << " " << members << " per group)";
  if (headsPerGroup % *size == 0 || *size % headsPerGroup == 0)
    return success();
  return op->emitOpError() << "cannot tile " << members << " by " << *size
                           << ": a tile must lie within one group or cover "
                           << "whole groups (" << headsPerGroup << " "
                           << members << " per group)";
}
