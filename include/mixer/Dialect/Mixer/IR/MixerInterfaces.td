//===- MixerInterfaces.td - the interfaces of mixer ops ---*- tablegen -*-===//

#ifndef MIXER_DIALECT_MIXER_IR_MIXERINTERFACES_TD
#define MIXER_DIALECT_MIXER_IR_MIXERINTERFACES_TD

include "mlir/IR/OpBase.td"

def MixerStructuredOpInterface : OpInterface<"MixerStructuredOpInterface"> {
  let description = [{
    A destination-style mixer op described, as a linalg op is, by a loop nest
    and one indexing map per operand over it. The loops are every dimension
    of the op's work: the parallel ones (batch, heads, rows, columns) and the
    sequential or reduction ones that stay inside one op (the scan's length
    L and state dims, the kernel sums' M and D, the grouped GEMM's K). Some
    parallel loops are not tileable either: the rows of a grouped GEMM are
    tied to groups by run-time sizes. Tiling splits only the tileable loops;
    every other loop is whole in every tile.

    The one TilingInterface model of all mixer ops (TilingModel.cpp) is
    written over these maps: it tiles, gives result tiles, and maps operand
    and result tiles back to the loops for producer and consumer fusion.
    A map result is a loop (`d2`), a constant (a dimension of size 1 read
    whole by every loop point), or a loop divided by a constant
    (`d2 floordiv 4`: four heads share a group), whose tile is exact when the
    loop's tile lies within one group or covers whole groups; `checkTile`
    rejects other tiles.
  }];
  let cppNamespace = "::mlir::mixer";
  let methods = [
    InterfaceMethod<
      "One map per operand (the present ones, in operand order, `outs` "
      "last) from the loops to the operand's dimensions.",
      "::llvm::SmallVector<::mlir::AffineMap>", "getIndexingMapsArray">,
    InterfaceMethod<
      "The iterator type of every loop: parallel, or reduction for a "
      "sequential or summed loop.",
      "::llvm::SmallVector<::mlir::utils::IteratorType>",
      "getIteratorTypesArray">,
    InterfaceMethod<
      "The loops that tiling may split, in increasing order: the iteration "
      "domain of TilingInterface.",
      "::llvm::SmallVector<unsigned>", "getTileableLoops">,
    InterfaceMethod<
      "Fails, with a message naming the operand, for a tile of the tileable "
      "loops that the maps cannot serve exactly (a head tile that splits a "
      "group).",
      "::llvm::LogicalResult", "checkTile",
      (ins "::llvm::ArrayRef<::mlir::OpFoldResult>":$sizes), [{}],
      [{ return ::mlir::success(); }]>,
  ];
}

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

def Mixer_DifferentiableOpInterface
    : OpInterface<"DifferentiableOpInterface"> {
  let description = [{
    Reverse-mode differentiation of an op on tensors. `buildVjp` builds the
    vector-Jacobian product of the op: from a cotangent of each result, the
    cotangent of each operand. For a mixer op it creates the op's backward
    op (mixer.ssd -> mixer.ssd_backward), whose lowering reuses the forward
    algorithm's building blocks; mixer-generate-vjp chains these products in
    reverse order through a whole function.
  }];
  let cppNamespace = "::mlir::mixer";
  let methods = [
    InterfaceMethod<
      "Builds the vector-Jacobian product at the builder's insertion point, "
      "which lies after the op, so the op's results (final states, "
      "normalizers) may serve as residuals. `cotangents` holds one value per "
      "result, null for a result whose cotangent is zero (at least one is "
      "not null). Returns one value per operand of the op, in operand order: "
      "the operand's cotangent, of its type, or null for an operand without "
      "one (`outs`, integer arrays such as indices and group sizes). Fails, "
      "with an error on the op naming what it cannot differentiate.",
      "::mlir::FailureOr<::llvm::SmallVector<::mlir::Value>>", "buildVjp",
      (ins "::mlir::OpBuilder &":$builder,
           "::llvm::ArrayRef<::mlir::Value>":$cotangents)>
  ];
}

#endif // MIXER_DIALECT_MIXER_IR_MIXERINTERFACES_TD
