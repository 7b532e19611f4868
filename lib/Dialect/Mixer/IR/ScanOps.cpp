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
using ScanOperand = NamedOperand;

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
  /// dimension `groups` of other operands. Empty for an ungrouped scan.
  StringRef members, groups, membersOf;
  /// What messages call the second loop: the heads, or a grouped scan's
  /// members.
  StringRef membersWord = "heads";

  void groupBy(StringRef memberDim, StringRef groupDim, StringRef word,
               StringRef of) {
    members = memberDim;
    groups = groupDim;
    membersWord = word;
    membersOf = of;
  }
};
} // namespace

/// Completes the signature of a forward scan from its inputs: the results
/// `output` with `outputDims` and the final state (with the dims of the
/// input "init"), and the loops.
static ScanSignature forwardScan(ScanSignature sig, ValueRange outs,
                                 StringRef output,
                                 ArrayRef<StringRef> outputDims,
                                 ArrayRef<StringRef> loops,
                                 ArrayRef<StringRef> sequential) {
  const ScanOperand *init = llvm::find_if(
      sig.inputs, [](const ScanOperand &in) { return in.name == "init"; });
  sig.results =
      namedResults(outs, {{output, outputDims}, {"final_state", init->dims}});
  sig.loops.assign(loops.begin(), loops.end());
  sig.sequential.assign(sequential.begin(), sequential.end());
  return sig;
}

/// A forward scan's third `outs`, when present: the chunk_states result
/// of dims `rows`, sequential over its rows C.
static void withChunkStates(ScanSignature &sig, ValueRange outs,
                            ArrayRef<StringRef> rows) {
  if (outs.size() <= 2)
    return;
  sig.results.append(
      namedResults(outs.drop_front(2), {{"chunk_states", rows}}));
  sig.sequential.push_back("C");
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
  auto dps = cast<DestinationStyleOpInterface>(op);
  if (failed(verifyOperands(op, v, sig.inputs, dps.getDpsInits(), sig.results)))
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

/// The size of a grouped scan's member tile: a constant once its members
/// are static and checkStaticTiles has passed.
static int64_t memberTile(const ScanSignature &sig,
                          ArrayRef<OpFoldResult> sizes) {
  size_t loop = llvm::find(sig.loops, sig.members) - sig.loops.begin();
  return *getConstantIntValue(sizes[loop]);
}

/// Fails for a tile of a loop other than the batch (the heads or channels,
/// the value dim) whose size is not a constant while the loop's is: the
/// partial last tile of a size that does not divide the loop. The lowering
/// needs those sizes static in every tile; only the batch may be dynamic.
static LogicalResult checkStaticTiles(Operation *op, const ScanSignature &sig,
                                      ArrayRef<OpFoldResult> sizes) {
  for (auto [i, loop] : llvm::enumerate(sig.loops)) {
    if (i == 0 || getConstantIntValue(sizes[i]) || !staticSize(sig, loop))
      continue;
    if (loop == sig.loops[1])
      return op->emitOpError()
             << "cannot tile " << sig.membersWord
             << " by a size that does not divide them: the lowering needs a "
                "static number of "
             << sig.membersWord << " in every tile";
    return op->emitOpError()
           << "cannot tile dim " << loop
           << " by a size that does not divide it: the lowering needs it "
              "static in every tile";
  }
  return success();
}

/// For a grouped scan, fails for a member tile that would split groups
/// unevenly, or for any tile when the members per group are not static; an
/// ungrouped scan has nothing to check.
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
  return checkHeadTile(op, memberTile(sig, sizes), *members / *groups,
                       sig.membersWord);
}

/// The MixerStructuredOpInterface methods of a scan op, over its signature:
/// its tiles are static (checkStaticTiles) and pass `checkGroupTile`.
#define MIXER_SCAN_STRUCTURE(OpTy, checkGroupTile)                             \
  static OpStructure structureOf(OpTy op) {                                    \
    return scanStructure(op.getContext(), signatureOf(op));                    \
  }                                                                            \
  MIXER_STRUCTURED_OP(OpTy)                                                    \
  LogicalResult OpTy::checkTile(ArrayRef<OpFoldResult> sizes) {                \
    ScanSignature sig = signatureOf(*this);                                    \
    if (failed(checkStaticTiles(*this, sig, sizes)))                           \
      return failure();                                                        \
    return checkGroupTile(*this, sig, sizes);                                  \
  }

//===----------------------------------------------------------------------===//
// SsdOp
//===----------------------------------------------------------------------===//

/// The inputs of ssd and the grouping of its heads, which ssd_backward
/// shares.
template <typename OpTy> static ScanSignature ssdInputs(OpTy op) {
  ScanSignature sig;
  sig.inputs = {{op.getX(), "x", {"B", "L", "H", "P"}},
                {op.getLogA(), "log_a", {"B", "L", "H"}, ValueRule::NonPositive},
                {op.getB(), "b", {"B", "L", "G", "N"}},
                {op.getC(), "c", {"B", "L", "G", "N"}},
                {op.getInit(), "init", {"B", "H", "P", "N"}}};
  sig.groupBy("H", "G", "heads", "x");
  return sig;
}

// Loops (B, H, P; L, N): B, H, P tiled. Each head reads its group's b and
// c, so a head tile maps to a group tile.
static ScanSignature signatureOf(SsdOp op) {
  ScanSignature sig =
      forwardScan(ssdInputs(op), op.getOuts(), "y", {"B", "L", "H", "P"},
                  {"B", "H", "P"}, {"L", "N"});
  // The chunk-boundary states, transposed.
  static const StringRef rows[] = {"B", "H", "C", "N", "P"};
  withChunkStates(sig, op.getOuts(), rows);
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

MIXER_SCAN_STRUCTURE(SsdOp, checkScanTile)

//===----------------------------------------------------------------------===//
// SelectiveScanOp
//===----------------------------------------------------------------------===//

/// The inputs of selective_scan and the grouping of its channels, which
/// selective_scan_backward shares.
template <typename OpTy> static ScanSignature selectiveScanInputs(OpTy op) {
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
  sig.groupBy("D", "G", "channels", "u");
  return sig;
}

// Loops (B, D; L, N): B, D tiled. Each channel reads its group's b and c,
// so a channel tile maps to a group tile.
static ScanSignature signatureOf(SelectiveScanOp op) {
  return forwardScan(selectiveScanInputs(op), op.getOuts(), "y",
                     {"B", "L", "D"}, {"B", "D"}, {"L", "N"});
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

MIXER_SCAN_STRUCTURE(SelectiveScanOp, checkScanTile)

//===----------------------------------------------------------------------===//
// LinearAttentionOp
//===----------------------------------------------------------------------===//

/// The inputs of linear_attention, which linear_attention_backward shares.
template <typename OpTy> static ScanSignature linearAttentionInputs(OpTy op) {
  ScanSignature sig;
  sig.inputs = {
      {op.getQ(), "q", {"B", "L", "H", "Dk"}},
      {op.getK(), "k", {"B", "L", "H", "Dk"}},
      {op.getV(), "v", {"B", "L", "H", "Dv"}},
      {op.getLogDecay(), "log_decay", {"B", "L", "H"}, ValueRule::NonPositive},
      {op.getInit(), "init", {"B", "H", "Dk", "Dv"}}};
  return sig;
}

// Loops (B, H, Dv; L, Dk): B, H, Dv tiled: the Dv columns of the state
// evolve independently.
static ScanSignature signatureOf(LinearAttentionOp op) {
  ScanSignature sig =
      forwardScan(linearAttentionInputs(op), op.getOuts(), "o",
                  {"B", "L", "H", "Dv"}, {"B", "H", "Dv"}, {"L", "Dk"});
  static const StringRef rows[] = {"B", "H", "C", "Dk", "Dv"};
  withChunkStates(sig, op.getOuts(), rows);
  return sig;
}

void LinearAttentionOp::build(OpBuilder &builder, OperationState &state,
                              Value q, Value k, Value v, Value logDecay,
                              Value init, Value oInit, Value stateInit,
                              int64_t chunkSize, int64_t window, float scale,
                              Value chunkStatesInit) {
  SmallVector<Value> outs = {oInit, stateInit};
  if (chunkStatesInit)
    outs.push_back(chunkStatesInit);
  build(builder, state, ValueRange(outs).getTypes(), q, k, v, logDecay, init,
        outs, builder.getI64IntegerAttr(chunkSize),
        builder.getI64IntegerAttr(window), builder.getF32FloatAttr(scale));
}

LogicalResult LinearAttentionOp::verify() {
  int64_t chunkSize = getChunkSizeAttr().getInt();
  if (failed(verifyChunkSize(*this, chunkSize)))
    return failure();
  if (getWindowAttr().getInt() < 0)
    return emitOpError() << "attribute 'window' must be non-negative, got "
                         << getWindowAttr().getInt();
  Value chunkStates = getOuts().size() > 2 ? getOuts()[2] : Value();
  // With a window the scan's chunks do not start at multiples of
  // chunk_size: no boundary states to return.
  if (chunkStates && getWindowAttr().getInt() != 0)
    return emitOpError() << "operand 'chunk_states' needs window 0, got "
                         << getWindowAttr().getInt();
  ShapeVerifier v(*this);
  if (failed(verifyScan(*this, signatureOf(*this), v)))
    return failure();
  return verifyChunkRows(*this, v, chunkStates, "chunk_states", 2, chunkSize);
}

MIXER_SCAN_STRUCTURE(LinearAttentionOp, checkScanTile)

//===----------------------------------------------------------------------===//
// GatedDeltaRuleOp
//===----------------------------------------------------------------------===//

/// The inputs of gated_delta_rule, which gated_delta_rule_backward shares.
template <typename OpTy> static ScanSignature gatedDeltaRuleInputs(OpTy op) {
  ScanSignature sig;
  sig.inputs = {{op.getQ(), "q", {"B", "L", "H", "Dk"}},
                {op.getK(), "k", {"B", "L", "H", "Dk"}},
                {op.getV(), "v", {"B", "L", "H", "Dv"}},
                {op.getG(), "g", {"B", "L", "H"}, ValueRule::NonPositive},
                {op.getBeta(), "beta", {"B", "L", "H"}},
                {op.getInit(), "init", {"B", "H", "Dk", "Dv"}}};
  return sig;
}

// Loops (B, H, Dv; L, Dk): B, H, Dv tiled: the delta-rule update
// (I - beta k k^T) S acts on each Dv column of the state alone.
static ScanSignature signatureOf(GatedDeltaRuleOp op) {
  return forwardScan(gatedDeltaRuleInputs(op), op.getOuts(), "o",
                     {"B", "L", "H", "Dv"}, {"B", "H", "Dv"}, {"L", "Dk"});
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

MIXER_SCAN_STRUCTURE(GatedDeltaRuleOp, checkScanTile)

//===----------------------------------------------------------------------===//
// The backward scans
//===----------------------------------------------------------------------===//
//
// A backward scan takes the inputs of its forward, then the residuals and
// the cotangents of the forward's results, and returns one gradient per
// input of the forward that is present, in order.

/// Completes the signature of a backward scan from the inputs of its forward
/// in `sig`: one result per present input, taking the next `outs` operand,
/// named "d" and the input's name, with its dims and the batch dim B in front
/// where the input has none (the gradients of A, D_skip and delta_bias are
/// summed per batch entry); then the residuals and cotangents
/// `extraInputs`, and the loops.
static ScanSignature backwardScan(MLIRContext *context, ScanSignature sig,
                                  ValueRange outs,
                                  ArrayRef<ScanOperand> extraInputs,
                                  ArrayRef<StringRef> loops,
                                  ArrayRef<StringRef> sequential) {
  for (const ScanOperand &in : sig.inputs) {
    if (!in.value)
      continue;
    size_t i = sig.results.size();
    ScanOperand grad{i < outs.size() ? outs[i] : Value(),
                     StringAttr::get(context, "d" + in.name).getValue(),
                     in.dims};
    if (grad.dims.front() != "B")
      grad.dims.insert(grad.dims.begin(), "B");
    sig.results.push_back(grad);
  }
  sig.inputs.append(extraInputs.begin(), extraInputs.end());
  sig.loops.assign(loops.begin(), loops.end());
  sig.sequential.assign(sequential.begin(), sequential.end());
  return sig;
}

/// Verifies a backward scan: its chunk size, one `outs` operand per
/// gradient, its signature and, when it takes them, the rows of
/// `chunkStates` (row j is the state before token j * chunk_size).
static LogicalResult verifyScanBackward(Operation *op, const ScanSignature &sig,
                                        int64_t chunkSize,
                                        Value chunkStates = Value()) {
  if (failed(verifyChunkSize(op, chunkSize)))
    return failure();
  ValueRange outs = cast<DestinationStyleOpInterface>(op).getDpsInits();
  if (outs.size() != sig.results.size()) {
    InFlightDiagnostic diag = op->emitOpError();
    diag << "expects " << sig.results.size() << " 'outs', one per gradient (";
    llvm::interleaveComma(sig.results, diag,
                          [&](const ScanOperand &grad) { diag << grad.name; });
    return diag << "), got " << outs.size();
  }
  ShapeVerifier v(op);
  if (failed(verifyScan(op, sig, v)))
    return failure();
  return verifyChunkRows(op, v, chunkStates, "chunk_states", 2, chunkSize);
}

/// Fails for a member tile of a backward op that does not cover whole
/// groups: the gradients of b and c sum over the members of a group.
static LogicalResult checkWholeGroupTile(Operation *op,
                                         const ScanSignature &sig,
                                         ArrayRef<OpFoldResult> sizes) {
  std::optional<int64_t> members = staticSize(sig, sig.members);
  std::optional<int64_t> groups = staticSize(sig, sig.groups);
  if (!members || !groups || *groups == 0)
    return op->emitOpError() << "cannot tile with a dynamic number of "
                             << sig.membersWord << " or groups";
  int64_t perGroup = *members / *groups;
  int64_t tile = memberTile(sig, sizes);
  if (tile % perGroup == 0)
    return success();
  return op->emitOpError()
         << "cannot tile " << sig.membersWord << " by " << tile
         << ": the gradients of 'b' and 'c' sum over a group, so a tile must "
            "cover whole groups ("
         << perGroup << " " << sig.membersWord << " each)";
}

//===----------------------------------------------------------------------===//
// SsdBackwardOp
//===----------------------------------------------------------------------===//

// Loops (B, H; L, P, N): B, H tiled, a head tile covering whole groups.
static ScanSignature signatureOf(SsdBackwardOp op) {
  return backwardScan(
      op.getContext(), ssdInputs(op), op.getOuts(),
      {{op.getChunkStates(), "chunk_states", {"B", "H", "C", "N", "P"}},
       {op.getDy(), "dy", {"B", "L", "H", "P"}},
       {op.getDFinalState(), "d_final_state", {"B", "H", "P", "N"}}},
      {"B", "H"}, {"L", "P", "N", "C"});
}

void SsdBackwardOp::build(OpBuilder &builder, OperationState &state, Value x,
                          Value logA, Value b, Value c, Value init,
                          Value chunkStates, Value dy, Value dFinalState,
                          ValueRange outs, int64_t chunkSize) {
  build(builder, state, TypeRange(outs), x, logA, b, c, init, chunkStates, dy,
        dFinalState, outs, builder.getI64IntegerAttr(chunkSize));
}

LogicalResult SsdBackwardOp::verify() {
  return verifyScanBackward(*this, signatureOf(*this),
                            getChunkSizeAttr().getInt(), getChunkStates());
}

MIXER_SCAN_STRUCTURE(SsdBackwardOp, checkWholeGroupTile)

//===----------------------------------------------------------------------===//
// LinearAttentionBackwardOp
//===----------------------------------------------------------------------===//

// Loops (B, H; L, Dk, Dv): B, H tiled (one group per head).
static ScanSignature signatureOf(LinearAttentionBackwardOp op) {
  return backwardScan(
      op.getContext(), linearAttentionInputs(op), op.getOuts(),
      {{op.getDout(), "dout", {"B", "L", "H", "Dv"}},
       {op.getDFinalState(), "d_final_state", {"B", "H", "Dk", "Dv"}},
       {op.getChunkStates(), "chunk_states", {"B", "H", "C", "Dk", "Dv"}}},
      {"B", "H"}, {"L", "Dk", "Dv", "C"});
}

void LinearAttentionBackwardOp::build(OpBuilder &builder, OperationState &state,
                                      Value q, Value k, Value v, Value logDecay,
                                      Value init, Value dOut, Value dFinalState,
                                      ValueRange outs, int64_t chunkSize,
                                      int64_t window, float scale,
                                      Value chunkStates) {
  build(builder, state, TypeRange(outs), q, k, v, logDecay, init, dOut,
        dFinalState, chunkStates, outs, builder.getI64IntegerAttr(chunkSize),
        builder.getI64IntegerAttr(window), builder.getF32FloatAttr(scale));
}

LogicalResult LinearAttentionBackwardOp::verify() {
  if (getWindowAttr().getInt() < 0)
    return emitOpError() << "attribute 'window' must be non-negative, got "
                         << getWindowAttr().getInt();
  if (getChunkStates() && getWindowAttr().getInt() != 0)
    return emitOpError() << "operand 'chunk_states' needs window 0, got "
                         << getWindowAttr().getInt();
  return verifyScanBackward(*this, signatureOf(*this),
                            getChunkSizeAttr().getInt(), getChunkStates());
}

MIXER_SCAN_STRUCTURE(LinearAttentionBackwardOp, checkScanTile)

//===----------------------------------------------------------------------===//
// SelectiveScanBackwardOp
//===----------------------------------------------------------------------===//

// Loops (B, D; L, N, C): B, D tiled. The gradients of b and c sum over the
// channels of a group, so a channel tile covers whole groups (checkTile).
static ScanSignature signatureOf(SelectiveScanBackwardOp op) {
  return backwardScan(
      op.getContext(), selectiveScanInputs(op), op.getOuts(),
      {{op.getDy(), "dy", {"B", "L", "D"}},
       {op.getDFinalState(), "d_final_state", {"B", "D", "N"}},
       {op.getChunkStates(), "chunk_states", {"B", "D", "C", "N"}}},
      {"B", "D"}, {"L", "N", "C"});
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
  return verifyScanBackward(*this, signatureOf(*this),
                            getChunkSizeAttr().getInt(), getChunkStates());
}

MIXER_SCAN_STRUCTURE(SelectiveScanBackwardOp, checkWholeGroupTile)

//===----------------------------------------------------------------------===//
// GatedDeltaRuleBackwardOp
//===----------------------------------------------------------------------===//

// Loops (B, H; L, Dk, Dv, C): B, H tiled. dq, dk, dg and dbeta sum over the
// Dv columns, so unlike the forward Dv stays whole.
static ScanSignature signatureOf(GatedDeltaRuleBackwardOp op) {
  return backwardScan(
      op.getContext(), gatedDeltaRuleInputs(op), op.getOuts(),
      {{op.getDO(), "d_o", {"B", "L", "H", "Dv"}},
       {op.getDFinalState(), "d_final_state", {"B", "H", "Dk", "Dv"}},
       {op.getChunkStates(), "chunk_states", {"B", "H", "C", "Dk", "Dv"}}},
      {"B", "H"}, {"L", "Dk", "Dv", "C"});
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
  return verifyScanBackward(*this, signatureOf(*this),
                            getChunkSizeAttr().getInt(), getChunkStates());
}

MIXER_SCAN_STRUCTURE(GatedDeltaRuleBackwardOp, checkScanTile)
