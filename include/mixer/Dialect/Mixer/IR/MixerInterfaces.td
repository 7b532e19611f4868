//===- MixerInterfaces.td - mixer op interfaces ------------*- tablegen -*-===//

#ifndef MIXER_DIALECT_MIXER_IR_MIXERINTERFACES_TD
#define MIXER_DIALECT_MIXER_IR_MIXERINTERFACES_TD

include "mlir/IR/OpBase.td"

def Mixer_ParallelTilingOpInterface
    : OpInterface<"ParallelTilingOpInterface"> {
  let description = [{
    The tile sizes with which mixer-tile-parallel-dims splits an op into
    independent work for a target: one entry per loop of the op's
    TilingInterface iteration domain, 0 for a loop left whole; empty to
    leave the op untiled.
  }];
  let cppNamespace = "::mlir::mixer";
  let methods = [
    InterfaceMethod<
      "The tile sizes of one unit of independent work on `target`.",
      "::llvm::SmallVector<int64_t>", "getParallelTileSizes",
      (ins "const ::mlir::mixer::TargetDescription &":$target)>
  ];
}

#endif // MIXER_DIALECT_MIXER_IR_MIXERINTERFACES_TD
