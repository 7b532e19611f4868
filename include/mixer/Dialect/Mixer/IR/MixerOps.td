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

/// A destination-style op whose `outs` operands (one per result) give the
/// result shapes, tiled over its parallel dimensions through TilingInterface.
class Mixer_StructuredOp<string mnemonic, list<Trait> traits = [],
                         list<string> overridden = []>
    : Mixer_Op<mnemonic, !listconcat(traits, [
        Pure, AttrSizedOperandSegments, DestinationStyleOpInterface,
        Mixer_Structured<overridden>,
        DeclareOpInterfaceMethods<Mixer_ParallelTilingOpInterface>])> {
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
        DeclareOpInterfaceMethods<Mixer_ParallelTilingOpInterface>])>;

include "mixer/Dialect/Mixer/IR/MixerScanOps.td"
include "mixer/Dialect/Mixer/IR/MixerKernelOps.td"
include "mixer/Dialect/Mixer/IR/MixerMoEOps.td"
include "mixer/Dialect/Mixer/IR/MixerScanBackwardOps.td"
include "mixer/Dialect/Mixer/IR/MixerKernelBackwardOps.td"
include "mixer/Dialect/Mixer/IR/MixerMoEBackwardOps.td"

#endif // MIXER_DIALECT_MIXER_IR_MIXEROPS_TD
