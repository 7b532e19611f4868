//===- ScanOps.cpp - verifiers, builders and tiling of the scans ----------===//
//
// Each scan states its operands once, as a ScanSignature: every operand with
// its dimensions named as in the op description ("x [B, L, H, P]"), the
// parallel dimensions that tiling loops over, and, for the grouped scans, the
// dimension whose members share a group of `b` and `c`. The verifier and the
// TilingInterface of every scan are written once over that signature.
//
//===----------------------------------------------------------------------===//

#include "ShapeVerifier.h"
#include "TilingUtils.h"
#include "mixer/Dialect/Mixer/IR/MixerOps.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::mixer;

//===----------------------------------------------------------------------===//
// Shared by the scans
//===----------------------------------------------------------------------===//

namespace {
/// An operand or result of a scan as the op description states it.
struct ScanOperand {
  /// Null for an absent optional operand.
  Value value;
  StringRef name;
  SmallVector<StringRef, 4> dims;
  /// What its values must satisfy when the code runs (log-decays <= 0).
  std::optional<ValueRule> rule = std::nullopt;
};

/// What a scan declares once, for its verifier and for its tiling.
struct ScanSignature {
  /// Every input operand, in operand order.
  SmallVector<ScanOperand> inputs;
  /// One per result, in order; `value` is the `outs` operand of the result
  /// (null when the op has too few `outs`, which the verifier reports).
  SmallVector<ScanOperand, 2> results;
  /// The parallel dimensions, in the order of the tiling loops.
  SmallVector<StringRef, 3> loops;
  /// For a grouped scan: the dimension `members` (a loop) of the operand
  /// `membersOf` reads the group member / (members / groups) of the
  /// dimension `groups` of other operands; `membersWord` names the members
  /// in messages. Empty for an ungrouped scan.
  StringRef members, groups, membersWord, membersOf;
};
} // namespace

/// Builds a signature's result entries from the `outs` operands.
static SmallVector<ScanOperand, 2>
scanResults(ValueRange outs,
            ArrayRef<std::pair<StringRef, ArrayRef<StringRef>>> results) {
  SmallVector<ScanOperand, 2> entries;
  for (auto [i, result] : llvm::enumerate(results))
    entries.push_back({i < outs.size() ? outs[i] : Value(), result.first,
                       llvm::to_vector<4>(result.second)});
  return entries;
}

static LogicalResult verifyChunkSize(Operation *op, int64_t chunkSize) {
  if (chunkSize <= 0)
    return op->emitOpError()
           << "attribute 'chunk_size' must be positive, got " << chunkSize;
  return success();
}

/// Verifies every operand and result of a scan against its signature,
/// binding the dimension symbols in `v`.
static LogicalResult verifyScan(Operation *op, const ScanSignature &sig,
                                ShapeVerifier &v) {
  for (const ScanOperand &in : sig.inputs) {
    if (in.value && failed(v.check(in.value, in.name, in.dims)))
      return failure();
    if (in.rule)
      v.require(in.value, in.name, *in.rule);
  }
  auto dps = cast<DestinationStyleOpInterface>(op);
  if (failed(verifyOutsAndResults(op, dps.getDpsInits(), sig.results.size())))
    return failure();
  for (const ScanOperand &out : sig.results)
    if (failed(v.check(out.value, out.name, out.dims)))
      return failure();
  if (sig.groups.empty())
    return success();

  v.requireMultiple(sig.members, sig.groups, sig.membersWord);
  SmallVector<StringRef> grouped;
  for (const ScanOperand &in : sig.inputs)
    if (llvm::is_contained(in.dims, sig.groups))
      grouped.push_back(in.name);
  std::optional<int64_t> members = v.size(sig.members);
  std::optional<int64_t> groups = v.size(sig.groups);
  if (groups && *groups == 0)
    return op->emitOpError() << "operand '" << grouped.front()
                             << "' must have at least one group";
  if (members && groups && *members % *groups != 0) {
    InFlightDiagnostic diag = op->emitOpError();
    diag << sig.membersWord << " " << sig.members << " = " << *members
         << " of '" << sig.membersOf << "' must be a multiple of groups "
         << sig.groups << " = " << *groups << " of ";
    llvm::interleave(
        grouped, [&](StringRef name) { diag << "'" << name << "'"; },
        [&] { diag << " and "; });
    return diag;
  }
  return success();
}

static SmallVector<utils::IteratorType>
scanIteratorTypes(const ScanSignature &sig) {
  return SmallVector<utils::IteratorType>(sig.loops.size(),
                                          utils::IteratorType::parallel);
}

/// The size of each loop is the size of the first input dim it names.
static SmallVector<Range> scanIterationDomain(OpBuilder &b, Location loc,
                                              const ScanSignature &sig) {
  SmallVector<Range> domain;
  for (StringRef loop : sig.loops) {
    for (const ScanOperand &in : sig.inputs) {
      auto *it = llvm::find(in.dims, loop);
      if (!in.value || it == in.dims.end())
        continue;
      domain.push_back(
          iterationDomainOf(b, loc, in.value, {it - in.dims.begin()})[0]);
      break;
    }
  }
  assert(domain.size() == sig.loops.size() && "every loop dim is an input dim");
  return domain;
}

namespace {
/// The tiles of one tiled scan: one per loop, then the group tile of a
/// grouped scan.
struct ScanTiles {
  SmallVector<DimTile, 4> loops;
  std::optional<DimTile> groups;

  /// The tile of an operand whose dims are `dims` (whole where no loop or
  /// group names the dim).
  OperandTile of(const ScanSignature &sig, ArrayRef<StringRef> dims) const {
    OperandTile tile;
    for (StringRef dim : dims) {
      auto *it = llvm::find(sig.loops, dim);
      if (it != sig.loops.end())
        tile.push_back(loops[it - sig.loops.begin()]);
      else if (!sig.groups.empty() && dim == sig.groups)
        tile.push_back(*groups);
      else
        tile.push_back(std::nullopt);
    }
    return tile;
  }
};
} // namespace

static ScanTiles scanLoopTiles(ArrayRef<OpFoldResult> offsets,
                               ArrayRef<OpFoldResult> sizes) {
  ScanTiles tiles;
  for (auto [offset, size] : llvm::zip_equal(offsets, sizes))
    tiles.loops.push_back(DimTile{offset, size});
  return tiles;
}

/// The loop tiles, and for a grouped scan the group tile that the member
/// tile reads. Fails for a member tile that would split groups unevenly.
static FailureOr<ScanTiles> scanTiles(OpBuilder &b, Operation *op,
                                      const ScanSignature &sig,
                                      ArrayRef<OpFoldResult> offsets,
                                      ArrayRef<OpFoldResult> sizes) {
  ScanTiles tiles = scanLoopTiles(offsets, sizes);
  if (sig.groups.empty())
    return tiles;
  // The op is valid here: verifying binds the static sizes of every dim.
  ShapeVerifier v(op);
  if (failed(verifyScan(op, sig, v)))
    return failure();
  std::optional<int64_t> members = v.size(sig.members);
  std::optional<int64_t> groups = v.size(sig.groups);
  // A single group serves every member: each tile reads all of it.
  if (groups && *groups == 1) {
    tiles.groups = DimTile{b.getIndexAttr(0), b.getIndexAttr(1)};
    return tiles;
  }
  if (!members || !groups)
    return op->emitOpError() << "cannot tile with a dynamic number of "
                             << sig.membersWord << " or groups";
  int64_t perGroup = *members / *groups;
  size_t memberLoop = llvm::find(sig.loops, sig.members) - sig.loops.begin();
  if (failed(checkHeadTile(op, sizes[memberLoop], perGroup, sig.membersWord)))
    return failure();
  tiles.groups =
      groupTileOfHeads(b, op->getLoc(), tiles.loops[memberLoop], perGroup);
  return tiles;
}

/// The tiled scan: the same op (attributes, present optional operands) over
/// the tiles of its operands.
template <typename OpTy>
static FailureOr<TilingResult>
tileScan(OpBuilder &b, OpTy op, const ScanSignature &sig,
         ArrayRef<OpFoldResult> offsets, ArrayRef<OpFoldResult> sizes) {
  FailureOr<ScanTiles> tiles = scanTiles(b, op, sig, offsets, sizes);
  if (failed(tiles))
    return failure();
  Location loc = op.getLoc();
  SmallVector<Operation *> slices;
  SmallVector<Value> operands;
  SmallVector<Type> resultTypes;
  for (const ScanOperand &in : sig.inputs) {
    if (!in.value)
      continue;
    assert(in.value == op->getOperand(operands.size()) &&
           "signature inputs in operand order");
    operands.push_back(
        extractTile(b, loc, in.value, tiles->of(sig, in.dims), slices));
  }
  for (const ScanOperand &out : sig.results) {
    operands.push_back(
        extractTile(b, loc, out.value, tiles->of(sig, out.dims), slices));
    resultTypes.push_back(operands.back().getType());
  }
  assert(operands.size() == op->getNumOperands() && "one tile per operand");
  auto tiled = OpTy::create(b, loc, resultTypes, operands, op.getProperties(),
                            op->getDiscardableAttrDictionary().getValue());
  return TilingResult{{tiled}, SmallVector<Value>(tiled->getResults()), slices};
}

static LogicalResult
scanResultTilePosition(OpBuilder &b, Location loc, const ScanSignature &sig,
                       unsigned resultNumber, ArrayRef<OpFoldResult> offsets,
                       ArrayRef<OpFoldResult> sizes,
                       SmallVector<OpFoldResult> &resultOffsets,
                       SmallVector<OpFoldResult> &resultSizes) {
  const ScanOperand &out = sig.results[resultNumber];
  assert((sig.groups.empty() || !llvm::is_contained(out.dims, sig.groups)) &&
         "results are not grouped");
  tileOffsetsAndSizes(b, loc, out.value,
                      scanLoopTiles(offsets, sizes).of(sig, out.dims),
                      resultOffsets, resultSizes);
  return success();
}

/// The TilingInterface methods of a scan op, over its signature.
#define MIXER_SCAN_TILING_INTERFACE(OpTy)                                      \
  SmallVector<utils::IteratorType> OpTy::getLoopIteratorTypes() {              \
    return scanIteratorTypes(signatureOf(*this));                              \
  }                                                                            \
  SmallVector<Range> OpTy::getIterationDomain(OpBuilder &b) {                  \
    return scanIterationDomain(b, getLoc(), signatureOf(*this));               \
  }                                                                            \
  FailureOr<TilingResult> OpTy::getTiledImplementation(                        \
      OpBuilder &b, ArrayRef<OpFoldResult> offsets,                            \
      ArrayRef<OpFoldResult> sizes) {                                          \
    return tileScan(b, *this, signatureOf(*this), offsets, sizes);             \
  }                                                                            \
  LogicalResult OpTy::getResultTilePosition(                                   \
      OpBuilder &b, unsigned resultNumber, ArrayRef<OpFoldResult> offsets,     \
      ArrayRef<OpFoldResult> sizes, SmallVector<OpFoldResult> &resultOffsets,  \
      SmallVector<OpFoldResult> &resultSizes) {                                \
    return scanResultTilePosition(b, getLoc(), signatureOf(*this),             \
                                  resultNumber, offsets, sizes, resultOffsets, \
                                  resultSizes);                                \
  }

//===----------------------------------------------------------------------===//
// SsdOp
//===----------------------------------------------------------------------===//

// Iteration domain: (B, H, P), all parallel. Each head reads its group's
// b and c, so a head tile maps to a group tile.
static ScanSignature signatureOf(SsdOp op) {
  ScanSignature sig;
  sig.inputs = {{op.getX(), "x", {"B", "L", "H", "P"}},
                {op.getLogA(), "log_a", {"B", "L", "H"}, ValueRule::NonPositive},
                {op.getB(), "b", {"B", "L", "G", "N"}},
                {op.getC(), "c", {"B", "L", "G", "N"}},
                {op.getInit(), "init", {"B", "H", "P", "N"}}};
  sig.results =
      scanResults(op.getOuts(), {{"y", {"B", "L", "H", "P"}},
                                 {"final_state", {"B", "H", "P", "N"}}});
  sig.loops = {"B", "H", "P"};
  sig.members = "H";
  sig.groups = "G";
  sig.membersWord = "heads";
  sig.membersOf = "x";
  return sig;
}

void SsdOp::build(OpBuilder &builder, OperationState &state, Value x,
                  Value logA, Value b, Value c, Value init, Value yInit,
                  Value stateInit, int64_t chunkSize) {
  build(builder, state, TypeRange{yInit.getType(), stateInit.getType()}, x,
        logA, b, c, init, ValueRange{yInit, stateInit},
        builder.getI64IntegerAttr(chunkSize));
}

LogicalResult SsdOp::verify() {
  if (failed(verifyChunkSize(*this, getChunkSizeAttr().getInt())))
    return failure();
  ShapeVerifier v(*this);
  return verifyScan(*this, signatureOf(*this), v);
}

MIXER_SCAN_TILING_INTERFACE(SsdOp)

//===----------------------------------------------------------------------===//
// SelectiveScanOp
//===----------------------------------------------------------------------===//

// Iteration domain: (B, D), all parallel. Each channel reads its group's
// b and c, so a channel tile maps to a group tile.
static ScanSignature signatureOf(SelectiveScanOp op) {
  ScanSignature sig;
  sig.inputs = {{op.getU(), "u", {"B", "L", "D"}},
                {op.getDelta(), "delta", {"B", "L", "D"}},
                {op.getA(), "A", {"D", "N"}},
                {op.getB(), "b", {"B", "L", "G", "N"}},
                {op.getC(), "c", {"B", "L", "G", "N"}},
                {op.getDSkip(), "D_skip", {"D"}},
                {op.getZ(), "z", {"B", "L", "D"}},
                {op.getDeltaBias(), "delta_bias", {"D"}},
                {op.getInit(), "init", {"B", "D", "N"}}};
  sig.results = scanResults(
      op.getOuts(), {{"y", {"B", "L", "D"}}, {"final_state", {"B", "D", "N"}}});
  sig.loops = {"B", "D"};
  sig.members = "D";
  sig.groups = "G";
  sig.membersWord = "channels";
  sig.membersOf = "u";
  return sig;
}

void SelectiveScanOp::build(OpBuilder &builder, OperationState &state, Value u,
                            Value delta, Value A, Value b, Value c, Value dSkip,
                            Value z, Value deltaBias, Value init, Value yInit,
                            Value stateInit, bool deltaSoftplus) {
  build(builder, state, TypeRange{yInit.getType(), stateInit.getType()}, u,
        delta, A, b, c, dSkip, z, deltaBias, init, ValueRange{yInit, stateInit},
        deltaSoftplus ? builder.getUnitAttr() : UnitAttr());
}

LogicalResult SelectiveScanOp::verify() {
  ShapeVerifier v(*this);
  return verifyScan(*this, signatureOf(*this), v);
}

MIXER_SCAN_TILING_INTERFACE(SelectiveScanOp)

//===----------------------------------------------------------------------===//
// LinearAttentionOp
//===----------------------------------------------------------------------===//

// Iteration domain: (B, H, Dv), all parallel: the Dv columns of the state
// evolve independently.
static ScanSignature signatureOf(LinearAttentionOp op) {
  ScanSignature sig;
  sig.inputs = {{op.getQ(), "q", {"B", "L", "H", "Dk"}},
                {op.getK(), "k", {"B", "L", "H", "Dk"}},
                {op.getV(), "v", {"B", "L", "H", "Dv"}},
                {op.getLogDecay(), "log_decay", {"B", "L", "H"}, ValueRule::NonPositive},
                {op.getInit(), "init", {"B", "H", "Dk", "Dv"}}};
  sig.results =
      scanResults(op.getOuts(), {{"o", {"B", "L", "H", "Dv"}},
                                 {"final_state", {"B", "H", "Dk", "Dv"}}});
  sig.loops = {"B", "H", "Dv"};
  return sig;
}

void LinearAttentionOp::build(OpBuilder &builder, OperationState &state,
                              Value q, Value k, Value v, Value logDecay,
                              Value init, Value oInit, Value stateInit,
                              int64_t chunkSize, int64_t window, float scale) {
  build(builder, state, TypeRange{oInit.getType(), stateInit.getType()}, q, k,
        v, logDecay, init, ValueRange{oInit, stateInit},
        builder.getI64IntegerAttr(chunkSize), builder.getI64IntegerAttr(window),
        builder.getF32FloatAttr(scale));
}

LogicalResult LinearAttentionOp::verify() {
  if (failed(verifyChunkSize(*this, getChunkSizeAttr().getInt())))
    return failure();
  if (getWindowAttr().getInt() < 0)
    return emitOpError() << "attribute 'window' must be non-negative, got "
                         << getWindowAttr().getInt();
  ShapeVerifier v(*this);
  return verifyScan(*this, signatureOf(*this), v);
}

MIXER_SCAN_TILING_INTERFACE(LinearAttentionOp)

//===----------------------------------------------------------------------===//
// GatedDeltaRuleOp
//===----------------------------------------------------------------------===//

// Iteration domain: (B, H, Dv), all parallel: the delta-rule update
// (I - beta k k^T) S acts on each Dv column of the state alone.
static ScanSignature signatureOf(GatedDeltaRuleOp op) {
  ScanSignature sig;
  sig.inputs = {{op.getQ(), "q", {"B", "L", "H", "Dk"}},
                {op.getK(), "k", {"B", "L", "H", "Dk"}},
                {op.getV(), "v", {"B", "L", "H", "Dv"}},
                {op.getG(), "g", {"B", "L", "H"}, ValueRule::NonPositive},
                {op.getBeta(), "beta", {"B", "L", "H"}},
                {op.getInit(), "init", {"B", "H", "Dk", "Dv"}}};
  sig.results =
      scanResults(op.getOuts(), {{"o", {"B", "L", "H", "Dv"}},
                                 {"final_state", {"B", "H", "Dk", "Dv"}}});
  sig.loops = {"B", "H", "Dv"};
  return sig;
}

void GatedDeltaRuleOp::build(OpBuilder &builder, OperationState &state, Value q,
                             Value k, Value v, Value g, Value beta, Value init,
                             Value oInit, Value stateInit, int64_t chunkSize,
                             float scale) {
  build(builder, state, TypeRange{oInit.getType(), stateInit.getType()}, q, k,
        v, g, beta, init, ValueRange{oInit, stateInit},
        builder.getI64IntegerAttr(chunkSize), builder.getF32FloatAttr(scale));
}

LogicalResult GatedDeltaRuleOp::verify() {
  if (failed(verifyChunkSize(*this, getChunkSizeAttr().getInt())))
    return failure();
  ShapeVerifier v(*this);
  return verifyScan(*this, signatureOf(*this), v);
}

MIXER_SCAN_TILING_INTERFACE(GatedDeltaRuleOp)
