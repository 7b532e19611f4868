//===- ScanOps.cpp - verifiers, builders and tiling of the scans ----------===//
//
// Each scan states its operands once, as a ScanSignature: every operand with
// its dimensions named as in the op description ("x [B, L, H, P]"), the
// parallel dimensions that tiling loops over, the sequential ones, and, for
// the grouped scans, the dimension whose members share a group of `b` and
// `c`. The verifier and the loops and indexing maps of every scan (from which
// TilingModel.cpp tiles it) are written once over that signature.
//
//===----------------------------------------------------------------------===//

#include "ShapeVerifier.h"
#include "TilingUtils.h"
#include "mixer/Dialect/Mixer/IR/MixerOps.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
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
  /// The sequential dimensions (L and the state dims), whole in every tile.
  SmallVector<StringRef, 2> sequential;
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

/// Fails when the rows C of `chunkStates` (present, with C and L static)
/// are not L / chunk_size + 1: row j is the state before token
/// j * chunk_size, the last row where the partial last chunk starts.
static LogicalResult verifyChunkRows(Operation *op, ShapeVerifier &v,
                                     Value chunkStates, StringRef name,
                                     unsigned dim, int64_t chunkSize) {
  std::optional<int64_t> length = v.size("L"), rows = v.size("C");
  if (!chunkStates || !length || !rows || *rows == *length / chunkSize + 1)
    return success();
  return op->emitOpError() << "operand '" << name << "' dim " << dim
                           << " (C) must be L / chunk_size + 1 = "
                           << *length / chunkSize + 1 << ", got " << *rows;
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

/// The static size of dim `name`, from the first operand that has it static.
static std::optional<int64_t> staticSize(const ScanSignature &sig,
                                         StringRef name) {
  for (ArrayRef<ScanOperand> operands : {ArrayRef(sig.inputs),
                                         ArrayRef(sig.results)})
    for (const ScanOperand &operand : operands) {
      auto *it = llvm::find(operand.dims, name);
      if (!operand.value || it == operand.dims.end())
        continue;
      int64_t size = cast<RankedTensorType>(operand.value.getType())
                         .getDimSize(it - operand.dims.begin());
      if (!ShapedType::isDynamic(size))
        return size;
    }
  return std::nullopt;
}

/// The loops and maps of a scan. A grouped scan's group dim is its member
/// loop divided by the members per group: by a constant when both counts
/// are static, by a symbol (a run-time count, refused by checkScanTile)
/// otherwise; a single group is read whole by every member.
static OpStructure scanStructure(MLIRContext *context,
                                 const ScanSignature &sig) {
  OpStructure s(context);
  s.tiled(sig.loops).reduction(sig.sequential);
  if (!sig.groups.empty()) {
    std::optional<int64_t> members = staticSize(sig, sig.members);
    std::optional<int64_t> groups = staticSize(sig, sig.groups);
    AffineExpr member = s.expr(sig.members);
    if (groups && *groups == 1)
      s.alias(sig.groups, getAffineConstantExpr(0, context));
    else if (members && groups && *groups > 0)
      s.alias(sig.groups, member.floorDiv(*members / *groups));
    else
      s.alias(sig.groups, member.floorDiv(s.newSymbol()));
  }
  for (const ScanOperand &in : sig.inputs)
    s.operand(in.value, in.dims);
  for (const ScanOperand &out : sig.results)
    s.operand(out.value, out.dims);
  return s;
}

/// Fails for a member tile that would split groups unevenly, or for any tile
/// when the members per group are not static.
static LogicalResult checkScanTile(Operation *op, const ScanSignature &sig,
                                   ArrayRef<OpFoldResult> sizes) {
  if (sig.groups.empty())
    return success();
  std::optional<int64_t> members = staticSize(sig, sig.members);
  std::optional<int64_t> groups = staticSize(sig, sig.groups);
  // A single group serves every member: each tile reads all of it.
  if (groups && *groups == 1)
    return success();
  if (!members || !groups)
    return op->emitOpError() << "cannot tile with a dynamic number of "
                             << sig.membersWord << " or groups";
  size_t memberLoop = llvm::find(sig.loops, sig.members) - sig.loops.begin();
  return checkHeadTile(op, sizes[memberLoop], *members / *groups,
                       sig.membersWord);
}

/// The MixerStructuredOpInterface methods of a scan op, over its signature.
#define MIXER_SCAN_STRUCTURE(OpTy)                                             \
  static OpStructure structureOf(OpTy op) {                                    \
    return scanStructure(op.getContext(), signatureOf(op));                    \
  }                                                                            \
  MIXER_STRUCTURED_OP(OpTy)

/// The same for a grouped scan, with its check of member tiles.
#define MIXER_GROUPED_SCAN_STRUCTURE(OpTy)                                     \
  MIXER_SCAN_STRUCTURE(OpTy)                                                   \
  LogicalResult OpTy::checkTile(ArrayRef<OpFoldResult> sizes) {                \
    return checkScanTile(*this, signatureOf(*this), sizes);                    \
  }

//===----------------------------------------------------------------------===//
// SsdOp
//===----------------------------------------------------------------------===//

// Loops (B, H, P; L, N): B, H, P tiled. Each head reads its group's b and
// c, so a head tile maps to a group tile.
static ScanSignature signatureOf(SsdOp op) {
  ScanSignature sig;
  sig.inputs = {{op.getX(), "x", {"B", "L", "H", "P"}},
                {op.getLogA(), "log_a", {"B", "L", "H"}, ValueRule::NonPositive},
                {op.getB(), "b", {"B", "L", "G", "N"}},
                {op.getC(), "c", {"B", "L", "G", "N"}},
                {op.getInit(), "init", {"B", "H", "P", "N"}}};
  SmallVector<std::pair<StringRef, ArrayRef<StringRef>>> results;
  static const StringRef seq[] = {"B", "L", "H", "P"},
                         state[] = {"B", "H", "P", "N"},
                         rows[] = {"B", "H", "C", "N", "P"};
  results = {{"y", seq}, {"final_state", state}};
  sig.loops = {"B", "H", "P"};
  sig.sequential = {"L", "N"};
  // A third `outs`: the chunk-boundary states, transposed.
  if (op.getOuts().size() > 2) {
    results.push_back({"chunk_states", rows});
    sig.sequential.push_back("C");
  }
  sig.results = scanResults(op.getOuts(), results);
  sig.members = "H";
  sig.groups = "G";
  sig.membersWord = "heads";
  sig.membersOf = "x";
  return sig;
}

void SsdOp::build(OpBuilder &builder, OperationState &state, Value x,
                  Value logA, Value b, Value c, Value init, Value yInit,
                  Value stateInit, int64_t chunkSize, Value chunkStatesInit) {
  SmallVector<Value> outs = {yInit, stateInit};
  if (chunkStatesInit)
    outs.push_back(chunkStatesInit);
  build(builder, state, ValueRange(outs).getTypes(), x, logA, b, c, init, outs,
        builder.getI64IntegerAttr(chunkSize));
}

LogicalResult SsdOp::verify() {
  int64_t chunkSize = getChunkSizeAttr().getInt();
  if (failed(verifyChunkSize(*this, chunkSize)))
    return failure();
  ShapeVerifier v(*this);
  if (failed(verifyScan(*this, signatureOf(*this), v)))
    return failure();
  Value chunkStates = getOuts().size() > 2 ? getOuts()[2] : Value();
  return verifyChunkRows(*this, v, chunkStates, "chunk_states", 2, chunkSize);
}

MIXER_GROUPED_SCAN_STRUCTURE(SsdOp)

//===----------------------------------------------------------------------===//
// SelectiveScanOp
//===----------------------------------------------------------------------===//

// Loops (B, D; L, N): B, D tiled. Each channel reads its group's b and c,
// so a channel tile maps to a group tile.
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
  sig.sequential = {"L", "N"};
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

MIXER_GROUPED_SCAN_STRUCTURE(SelectiveScanOp)

//===----------------------------------------------------------------------===//
// LinearAttentionOp
//===----------------------------------------------------------------------===//

// Loops (B, H, Dv; L, Dk): B, H, Dv tiled: the Dv columns of the state
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
  sig.sequential = {"L", "Dk"};
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

MIXER_SCAN_STRUCTURE(LinearAttentionOp)

//===----------------------------------------------------------------------===//
// GatedDeltaRuleOp
//===----------------------------------------------------------------------===//

// Loops (B, H, Dv; L, Dk): B, H, Dv tiled: the delta-rule update
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
  sig.sequential = {"L", "Dk"};
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

MIXER_SCAN_STRUCTURE(GatedDeltaRuleOp)

//===----------------------------------------------------------------------===//
// SsdBackwardOp and LinearAttentionBackwardOp
//===----------------------------------------------------------------------===//

/// Fails for a head tile of a backward op that does not cover whole groups:
/// the gradients of b and c sum over the heads of a group.
static LogicalResult checkWholeGroupTile(Operation *op,
                                         const ScanSignature &sig,
                                         ArrayRef<OpFoldResult> sizes) {
  std::optional<int64_t> members = staticSize(sig, sig.members);
  std::optional<int64_t> groups = staticSize(sig, sig.groups);
  if (!members || !groups || *groups == 0)
    return op->emitOpError() << "cannot tile with a dynamic number of "
                             << sig.membersWord << " or groups";
  int64_t perGroup = *members / *groups;
  size_t memberLoop = llvm::find(sig.loops, sig.members) - sig.loops.begin();
  std::optional<int64_t> size = getConstantIntValue(sizes[memberLoop]);
  if (size && *size % perGroup == 0)
    return success();
  return op->emitOpError() << "cannot tile heads by a size that is not a "
                           << "multiple of the heads per group (" << perGroup
                           << "): the gradients of 'b' and 'c' sum over the "
                           << "heads of a group";
}

/// Appends the result `name` with `dims` to `sig`, taking the next `outs`
/// operand (null when there are too few, which the verifier reports).
static void addResult(ScanSignature &sig, ValueRange outs, StringRef name,
                      ArrayRef<StringRef> dims) {
  size_t i = sig.results.size();
  sig.results.push_back(
      {i < outs.size() ? outs[i] : Value(), name, llvm::to_vector<4>(dims)});
}

// Loops (B, H; L, P, N): B, H tiled, a head tile covering whole groups.
static ScanSignature signatureOf(SsdBackwardOp op) {
  ScanSignature sig;
  sig.inputs = {
      {op.getX(), "x", {"B", "L", "H", "P"}},
      {op.getLogA(), "log_a", {"B", "L", "H"}, ValueRule::NonPositive},
      {op.getB(), "b", {"B", "L", "G", "N"}},
      {op.getC(), "c", {"B", "L", "G", "N"}},
      {op.getInit(), "init", {"B", "H", "P", "N"}},
      {op.getChunkStates(), "chunk_states", {"B", "H", "C", "N", "P"}},
      {op.getDy(), "dy", {"B", "L", "H", "P"}},
      {op.getDFinalState(), "d_final_state", {"B", "H", "P", "N"}}};
  ValueRange outs = op.getOuts();
  addResult(sig, outs, "dx", {"B", "L", "H", "P"});
  addResult(sig, outs, "dlog_a", {"B", "L", "H"});
  addResult(sig, outs, "db", {"B", "L", "G", "N"});
  addResult(sig, outs, "dc", {"B", "L", "G", "N"});
  if (op.getInit())
    addResult(sig, outs, "dinit", {"B", "H", "P", "N"});
  sig.loops = {"B", "H"};
  sig.sequential = {"L", "P", "N", "C"};
  sig.members = "H";
  sig.groups = "G";
  sig.membersWord = "heads";
  sig.membersOf = "x";
  return sig;
}

void SsdBackwardOp::build(OpBuilder &builder, OperationState &state, Value x,
                          Value logA, Value b, Value c, Value init,
                          Value chunkStates, Value dy, Value dFinalState,
                          ValueRange outs, int64_t chunkSize) {
  build(builder, state, TypeRange(outs), x, logA, b, c, init, chunkStates, dy,
        dFinalState, outs, builder.getI64IntegerAttr(chunkSize));
}

LogicalResult SsdBackwardOp::verify() {
  int64_t chunkSize = getChunkSizeAttr().getInt();
  if (failed(verifyChunkSize(*this, chunkSize)))
    return failure();
  ShapeVerifier v(*this);
  if (failed(verifyScan(*this, signatureOf(*this), v)))
    return failure();
  return verifyChunkRows(*this, v, getChunkStates(), "chunk_states", 2,
                         chunkSize);
}

MIXER_SCAN_STRUCTURE(SsdBackwardOp)

LogicalResult SsdBackwardOp::checkTile(ArrayRef<OpFoldResult> sizes) {
  return checkWholeGroupTile(*this, signatureOf(*this), sizes);
}

// Loops (B, H; L, Dk, Dv): B, H tiled (one group per head).
static ScanSignature signatureOf(LinearAttentionBackwardOp op) {
  ScanSignature sig;
  sig.inputs = {
      {op.getQ(), "q", {"B", "L", "H", "Dk"}},
      {op.getK(), "k", {"B", "L", "H", "Dk"}},
      {op.getV(), "v", {"B", "L", "H", "Dv"}},
      {op.getLogDecay(), "log_decay", {"B", "L", "H"}, ValueRule::NonPositive},
      {op.getInit(), "init", {"B", "H", "Dk", "Dv"}},
      {op.getDout(), "dout", {"B", "L", "H", "Dv"}},
      {op.getDFinalState(), "d_final_state", {"B", "H", "Dk", "Dv"}}};
  ValueRange outs = op.getOuts();
  addResult(sig, outs, "dq", {"B", "L", "H", "Dk"});
  addResult(sig, outs, "dk", {"B", "L", "H", "Dk"});
  addResult(sig, outs, "dv", {"B", "L", "H", "Dv"});
  if (op.getLogDecay())
    addResult(sig, outs, "dlog_decay", {"B", "L", "H"});
  if (op.getInit())
    addResult(sig, outs, "dinit", {"B", "H", "Dk", "Dv"});
  sig.loops = {"B", "H"};
  sig.sequential = {"L", "Dk", "Dv"};
  return sig;
}

void LinearAttentionBackwardOp::build(OpBuilder &builder,
                                      OperationState &state, Value q, Value k,
                                      Value v, Value logDecay, Value init,
                                      Value dOut, Value dFinalState,
                                      ValueRange outs, int64_t chunkSize,
                                      int64_t window, float scale) {
  build(builder, state, TypeRange(outs), q, k, v, logDecay, init, dOut,
        dFinalState, outs, builder.getI64IntegerAttr(chunkSize),
        builder.getI64IntegerAttr(window), builder.getF32FloatAttr(scale));
}

LogicalResult LinearAttentionBackwardOp::verify() {
  if (failed(verifyChunkSize(*this, getChunkSizeAttr().getInt())))
    return failure();
  if (getWindowAttr().getInt() < 0)
    return emitOpError() << "attribute 'window' must be non-negative, got "
                         << getWindowAttr().getInt();
  ShapeVerifier v(*this);
  return verifyScan(*this, signatureOf(*this), v);
}

MIXER_SCAN_STRUCTURE(LinearAttentionBackwardOp)

//===----------------------------------------------------------------------===//
// SelectiveScanBackwardOp
//===----------------------------------------------------------------------===//

// Loops (B, D; L, N, C): B, D tiled. The gradients of b and c sum over the
// channels of a group, so a channel tile covers whole groups (checkTile).
static ScanSignature signatureOf(SelectiveScanBackwardOp op) {
  ScanSignature sig;
  sig.inputs = {{op.getU(), "u", {"B", "L", "D"}},
                {op.getDelta(), "delta", {"B", "L", "D"}},
                {op.getA(), "A", {"D", "N"}},
                {op.getB(), "b", {"B", "L", "G", "N"}},
                {op.getC(), "c", {"B", "L", "G", "N"}},
                {op.getDSkip(), "D_skip", {"D"}},
                {op.getZ(), "z", {"B", "L", "D"}},
                {op.getDeltaBias(), "delta_bias", {"D"}},
                {op.getInit(), "init", {"B", "D", "N"}},
                {op.getDy(), "dy", {"B", "L", "D"}},
                {op.getDFinalState(), "d_final_state", {"B", "D", "N"}},
                {op.getChunkStates(), "chunk_states", {"B", "D", "C", "N"}}};
  SmallVector<std::pair<StringRef, ArrayRef<StringRef>>> grads;
  static const StringRef seq[] = {"B", "L", "D"}, perBatch[] = {"B", "D"},
                         state[] = {"B", "D", "N"},
                         grouped[] = {"B", "L", "G", "N"};
  grads = {{"du", seq}, {"ddelta", seq}, {"dA", state}, {"db", grouped},
           {"dc", grouped}};
  if (op.getDSkip())
    grads.push_back({"dD_skip", perBatch});
  if (op.getZ())
    grads.push_back({"dz", seq});
  if (op.getDeltaBias())
    grads.push_back({"ddelta_bias", perBatch});
  if (op.getInit())
    grads.push_back({"dinit", state});
  sig.results = scanResults(op.getOuts(), grads);
  sig.loops = {"B", "D"};
  sig.sequential = {"L", "N", "C"};
  sig.members = "D";
  sig.groups = "G";
  sig.membersWord = "channels";
  sig.membersOf = "u";
  return sig;
}

void SelectiveScanBackwardOp::build(
    OpBuilder &builder, OperationState &state, Value u, Value delta, Value A,
    Value b, Value c, Value dSkip, Value z, Value deltaBias, Value init,
    Value dy, Value dFinalState, Value chunkStates, ValueRange outs,
    int64_t chunkSize, bool deltaSoftplus) {
  build(builder, state, outs.getTypes(), u, delta, A, b, c, dSkip, z,
        deltaBias, init, dy, dFinalState, chunkStates, outs,
        builder.getI64IntegerAttr(chunkSize),
        deltaSoftplus ? builder.getUnitAttr() : UnitAttr());
}

LogicalResult SelectiveScanBackwardOp::verify() {
  int64_t chunkSize = getChunkSizeAttr().getInt();
  if (failed(verifyChunkSize(*this, chunkSize)))
    return failure();
  if (getOuts().size() != getNumGradients())
    return emitOpError() << "expects " << getNumGradients()
                         << " 'outs' (du, ddelta, dA, db, dc and one per "
                            "optional operand of the forward), got "
                         << getOuts().size();
  ShapeVerifier v(*this);
  if (failed(verifyScan(*this, signatureOf(*this), v)))
    return failure();
  return verifyChunkRows(*this, v, getChunkStates(), "chunk_states", 2,
                         chunkSize);
}

MIXER_SCAN_STRUCTURE(SelectiveScanBackwardOp)

LogicalResult
SelectiveScanBackwardOp::checkTile(ArrayRef<OpFoldResult> sizes) {
  ScanSignature sig = signatureOf(*this);
  std::optional<int64_t> channels = staticSize(sig, "D");
  std::optional<int64_t> groups = staticSize(sig, "G");
  std::optional<int64_t> tile = getConstantIntValue(sizes[1]);
  if (!channels || !groups || *groups == 0 || !tile ||
      *tile % (*channels / *groups) != 0)
    return emitOpError() << "cannot tile channels by "
                         << (tile ? std::to_string(*tile) : "a dynamic size")
                         << ": the gradients of 'b' and 'c' sum over a group, "
                            "so a tile must cover whole groups";
  return success();
}

//===----------------------------------------------------------------------===//
// GatedDeltaRuleBackwardOp
//===----------------------------------------------------------------------===//

// Loops (B, H; L, Dk, Dv, C): B, H tiled. dq, dk, dg and dbeta sum over the
// Dv columns, so unlike the forward Dv stays whole.
static ScanSignature signatureOf(GatedDeltaRuleBackwardOp op) {
  ScanSignature sig;
  sig.inputs = {
      {op.getQ(), "q", {"B", "L", "H", "Dk"}},
      {op.getK(), "k", {"B", "L", "H", "Dk"}},
      {op.getV(), "v", {"B", "L", "H", "Dv"}},
      {op.getG(), "g", {"B", "L", "H"}, ValueRule::NonPositive},
      {op.getBeta(), "beta", {"B", "L", "H"}},
      {op.getInit(), "init", {"B", "H", "Dk", "Dv"}},
      {op.getDO(), "d_o", {"B", "L", "H", "Dv"}},
      {op.getDFinalState(), "d_final_state", {"B", "H", "Dk", "Dv"}},
      {op.getChunkStates(), "chunk_states", {"B", "H", "C", "Dk", "Dv"}}};
  static const StringRef key[] = {"B", "L", "H", "Dk"},
                         value[] = {"B", "L", "H", "Dv"},
                         scalar[] = {"B", "L", "H"},
                         state[] = {"B", "H", "Dk", "Dv"};
  SmallVector<std::pair<StringRef, ArrayRef<StringRef>>> grads = {
      {"dq", key}, {"dk", key}, {"dv", value}, {"dg", scalar},
      {"dbeta", scalar}};
  if (op.getInit())
    grads.push_back({"dinit", state});
  sig.results = scanResults(op.getOuts(), grads);
  sig.loops = {"B", "H"};
  sig.sequential = {"L", "Dk", "Dv", "C"};
  return sig;
}

void GatedDeltaRuleBackwardOp::build(OpBuilder &builder, OperationState &state,
                                     Value q, Value k, Value v, Value g,
                                     Value beta, Value init, Value dO,
                                     Value dFinalState, Value chunkStates,
                                     ValueRange outs, int64_t chunkSize,
                                     float scale) {
  build(builder, state, outs.getTypes(), q, k, v, g, beta, init, dO,
        dFinalState, chunkStates, outs, builder.getI64IntegerAttr(chunkSize),
        builder.getF32FloatAttr(scale));
}

LogicalResult GatedDeltaRuleBackwardOp::verify() {
  int64_t chunkSize = getChunkSizeAttr().getInt();
  if (failed(verifyChunkSize(*this, chunkSize)))
    return failure();
  if (getOuts().size() != getNumGradients())
    return emitOpError() << "expects " << getNumGradients()
                         << " 'outs' (dq, dk, dv, dg, dbeta and dinit with "
                            "an init), got "
                         << getOuts().size();
  ShapeVerifier v(*this);
  if (failed(verifyScan(*this, signatureOf(*this), v)))
    return failure();
  return verifyChunkRows(*this, v, getChunkStates(), "chunk_states", 2,
                         chunkSize);
}

MIXER_SCAN_STRUCTURE(GatedDeltaRuleBackwardOp)
