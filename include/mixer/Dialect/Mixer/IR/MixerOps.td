//===- MixerOps.td - mixer ops -----------------------------*- tablegen -*-===//

#ifndef MIXER_DIALECT_MIXER_IR_MIXEROPS_TD
#define MIXER_DIALECT_MIXER_IR_MIXEROPS_TD

include "mixer/Dialect/Mixer/IR/MixerBase.td"
include "mixer/Dialect/Mixer/IR/MixerAttrs.td"
include "mlir/Interfaces/DestinationStyleOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mixer/Dialect/Mixer/IR/MixerInterfaces.td"

/// Base class of every mixer op.
class Mixer_Op<string mnemonic, list<Trait> traits = []>
    : Op<Mixer_Dialect, mnemonic, traits>;

/// The structure of a tiled op: its loops and indexing maps, from which the
/// one TilingInterface model of the dialect tiles it. `overridden` names the
/// interface methods with a default that the op replaces ("checkTile").
class Mixer_Structured<list<string> overridden = []>
    : DeclareOpInterfaceMethods<MixerStructuredOpInterface, overridden>;

/// An op's tile policy: how mixer-tile-parallel-dims splits it into
/// independent work. `policy` is the body of the op's
/// ParallelTilingOpInterface::getParallelTileSizes, a statement over the op
/// and `target` using the helpers of ParallelTilePolicies.h; `value` is that
/// method's definition, or nothing when `policy` is empty (the op defines it
/// in ParallelTileSizes.cpp).
class Mixer_TilePolicyDefinition<code policy> {
  code value = !if(!empty(policy), "",
    "::llvm::SmallVector<int64_t> $cppClass::getParallelTileSizes(\n"
    # "    const ::mlir::mixer::TargetDescription &target) {\n  "
    # policy # "\n}\n");
}

/// Tiled by mixer-tile-parallel-dims: the op's tile policy is either
/// `parallelTilePolicy` (see Mixer_TilePolicyDefinition) or, when that is
/// empty, hand-written.
class Mixer_ParallelTiled {
  code parallelTilePolicy = "";
  code extraClassDefinition =
      Mixer_TilePolicyDefinition<parallelTilePolicy>.value;
}

/// The tile policy of the kernel sums and their point gradients: one batch
/// entry (when batched) and the target's block of rows per tile.
defvar Mixer_RowBlockTiles =
    "return rowBlockTile(isBatched(), target.parallelRowBlock);";

/// A destination-style op whose `outs` operands (one per result) give the
/// result shapes, tiled over its parallel dimensions through TilingInterface.
class Mixer_StructuredOp<string mnemonic, list<Trait> traits = [],
                         list<string> overridden = []>
    : Mixer_Op<mnemonic, !listconcat(traits, [
        Pure, AttrSizedOperandSegments, DestinationStyleOpInterface,
        Mixer_Structured<overridden>,
        DeclareOpInterfaceMethods<Mixer_ParallelTilingOpInterface>])>,
      Mixer_ParallelTiled {
  /// Extra C++ declarations of a derived op (its extraClassDeclaration is
  /// taken by the DPS accessor below).
  code extraStructuredClassDeclaration = "";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::MutableOperandRange getDpsInitsMutable() { return getOutsMutable(); }
  }] # extraStructuredClassDeclaration;
}

/// A destination-style op whose only variable-length operand group is `outs`
/// (ODS rejects AttrSizedOperandSegments, which Mixer_StructuredOp carries for
/// optional operands, without a second group). Not tileable: for ops whose
/// results are not a partition of independent work, e.g. a global sort.
class Mixer_DestinationOp<string mnemonic, list<Trait> traits = []>
    : Mixer_Op<mnemonic, !listconcat(traits, [
        Pure, DestinationStyleOpInterface])> {
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::MutableOperandRange getDpsInitsMutable() { return getOutsMutable(); }
  }];
}

/// Mixer_DestinationOp tiled over its parallel dimensions through
/// TilingInterface.
class Mixer_TiledDestinationOp<string mnemonic, list<Trait> traits = []>
    : Mixer_DestinationOp<mnemonic, !listconcat(traits, [
        Mixer_Structured<>,
        DeclareOpInterfaceMethods<Mixer_ParallelTilingOpInterface>])>,
      Mixer_ParallelTiled;

include "mixer/Dialect/Mixer/IR/MixerScanOps.td"
include "mixer/Dialect/Mixer/IR/MixerKernelOps.td"
include "mixer/Dialect/Mixer/IR/MixerMoEOps.td"
include "mixer/Dialect/Mixer/IR/MixerScanBackwardOps.td"
include "mixer/Dialect/Mixer/IR/MixerKernelBackwardOps.td"
include "mixer/Dialect/Mixer/IR/MixerMoEBackwardOps.td"

#endif // MIXER_DIALECT_MIXER_IR_MIXEROPS_TD
