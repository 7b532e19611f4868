//===- MixerMoEBackwardOps.td - backward ops -*- tablegen -*-===//
//
// One backward op per differentiable MoE op: the op's inputs and the
// cotangent of its result in; the cotangent of every float array input out
// (group sizes and permutations are integers and get none).
//
// Rows of group e are offset_e .. offset_e + size_e - 1 as in the forward
// ops; the weight gradients are ragged reductions over those rows, read at
// run time.
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_DIALECT_MIXER_IR_MIXERMOEBACKWARDOPS_TD
#define MIXER_DIALECT_MIXER_IR_MIXERMOEBACKWARDOPS_TD

def Mixer_GroupedMatmulBackwardOp
    : Mixer_TiledDestinationOp<"grouped_matmul_backward"> {
  let summary = "gradients of mixer.grouped_matmul";
  let description = [{
    The vector-Jacobian product of `mixer.grouped_matmul`: from its operands
    `lhs` [T, K], `rhs` [E, K, N], `group_sizes` [E] (i32 or i64) and the
    cotangent `dout` [T, N] of its result, for the rows r of group e:

    ```
    dlhs[r, :] = dout[r, :] rhs[e]^T                 (dlhs is [T, K])
    dlhs[r, :] = 0                for sum_e size_e <= r < T
    drhs[e]    = sum_{r in group e} lhs[r, :]^T dout[r, :]   (drhs is [E, K, N])
    ```

    dlhs is the forward algorithm itself with rhs[e]^T as the weights
    (the same static row slabs per group); drhs walks the same slabs and
    accumulates lhs_slab^T dout_slab into a [K, N] block per group (0 for
    an empty group). No T x T or E x T x ... intermediate: one [N, K]
    transposed weight and one [K, N] accumulator per group. `group_sizes`
    gets no gradient. The sizes are read as in the forward op (negative
    counts as 0, cut at row T).

    Parallel dimension for tiling: K (the columns of `lhs` and `dlhs` and
    the rows of every rhs[e] and drhs[e]); T is not tiled.

    ```mlir
    %dlhs, %drhs = mixer.grouped_matmul_backward
        ins(%lhs, %rhs, %sizes, %dout : tensor<?x1024xf32>, tensor<8x1024x512xf32>,
                                        tensor<8xi64>, tensor<?x512xf32>)
        outs(%dl0, %dr0 : tensor<?x1024xf32>, tensor<8x1024x512xf32>)
        -> tensor<?x1024xf32>, tensor<8x1024x512xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$lhs, AnyRankedTensor:$rhs,
                       AnyRankedTensor:$group_sizes, AnyRankedTensor:$dout,
                       Variadic<AnyRankedTensor>:$outs);
  let results = (outs AnyRankedTensor:$dlhs, AnyRankedTensor:$drhs);
  // Tiles: column blocks of dlhs (K, the rows of every drhs[e]).
  let parallelTilePolicy = "return columnBlockTile(getOuts()[0]);";

  let assemblyFormat = [{
    `ins` `(` $lhs `,` $rhs `,` $group_sizes `,` $dout `:` type($lhs) `,` type($rhs) `,` type($group_sizes) `,` type($dout) `)`
    `outs` `(` $outs `:` type($outs) `)` attr-dict `->` type(results)
  }];
  let builders = [
    OpBuilder<(ins "::mlir::Value":$lhs, "::mlir::Value":$rhs,
                   "::mlir::Value":$groupSizes, "::mlir::Value":$dout,
                   "::mlir::Value":$dlhsInit, "::mlir::Value":$drhsInit)>
  ];
}

def Mixer_GroupedSwigluBackwardOp
    : Mixer_DestinationOp<"grouped_swiglu_backward"> {
  let summary = "gradients of mixer.grouped_swiglu";
  let description = [{
    The vector-Jacobian product of `mixer.grouped_swiglu`: from its operands
    `x` [T, K], `w_gate`, `w_up` [E, K, F], `group_sizes` [E] and the
    cotangent `dout` [T, F] of its result. Per row r of group e, with
    gate = x[r] w_gate[e], up = x[r] w_up[e], sigma the logistic function
    and silu'(z) = sigma(z) (1 + z (1 - sigma(z))):

    ```
    dgate = dout[r] * up * silu'(gate),   dup = dout[r] * silu(gate)
    dx[r]       = dgate w_gate[e]^T + dup w_up[e]^T     (dx is [T, K]; 0 past the groups)
    dw_gate[e]  = sum_{r in group e} x[r]^T dgate       (dw_gate, dw_up are [E, K, F])
    dw_up[e]    = sum_{r in group e} x[r]^T dup
    ```

    The gate and up projections are recomputed per static row slab of a
    group, as the forward computes them: dgate and dup live for one slab
    ([slab, F]) and nothing of size T x F is kept. `group_sizes` gets no
    gradient.

    Not tiled: every result needs the whole F (dx sums over it) and the
    whole K (the recomputed projections do), so it has no TilingInterface.

    ```mlir
    %dx, %dwg, %dwu = mixer.grouped_swiglu_backward
        ins(%x, %wg, %wu, %sizes, %dout : tensor<?x1024xf32>, tensor<8x1024x2816xf32>,
              tensor<8x1024x2816xf32>, tensor<8xi32>, tensor<?x2816xf32>)
        outs(%dx0, %dwg0, %dwu0 : tensor<?x1024xf32>, tensor<8x1024x2816xf32>,
              tensor<8x1024x2816xf32>)
        -> tensor<?x1024xf32>, tensor<8x1024x2816xf32>, tensor<8x1024x2816xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$x, AnyRankedTensor:$w_gate,
                       AnyRankedTensor:$w_up, AnyRankedTensor:$group_sizes,
                       AnyRankedTensor:$dout,
                       Variadic<AnyRankedTensor>:$outs);
  let results = (outs AnyRankedTensor:$dx, AnyRankedTensor:$dw_gate,
                      AnyRankedTensor:$dw_up);
  let assemblyFormat = [{
    `ins` `(` $x `,` $w_gate `,` $w_up `,` $group_sizes `,` $dout `:` type($x) `,` type($w_gate) `,` type($w_up) `,` type($group_sizes) `,` type($dout) `)`
    `outs` `(` $outs `:` type($outs) `)` attr-dict `->` type(results)
  }];
  let builders = [
    OpBuilder<(ins "::mlir::Value":$x, "::mlir::Value":$wGate,
                   "::mlir::Value":$wUp, "::mlir::Value":$groupSizes,
                   "::mlir::Value":$dout, "::mlir::ValueRange":$outInits)>
  ];
}

def Mixer_MoeCombineBackwardOp : Mixer_DestinationOp<"moe_combine_backward"> {
  let summary = "gradients of mixer.moe_combine";
  let description = [{
    The vector-Jacobian product of `mixer.moe_combine`: from its operands
    `expert_out` [T*k, N], `permutation` [T*k] i32, `weights` [T, k] and
    the cotangent `dout` [T, N] of its result, for each dispatched row r
    with permutation[r] = t * k + j:

    ```
    d_expert_out[r, :] = weights[t, j] * dout[t, :]      (d_expert_out is [T*k, N])
    d_weights[t, j]    = <dout[t, :], expert_out[r, :]>  (d_weights is [T, k])
    ```

    One pass over the rows r: a vector row update and a row dot product
    each. `permutation` gets no gradient.

    Not tiled: d_weights sums over the columns N that would be its tiles.

    ```mlir
    %deo, %dw = mixer.moe_combine_backward
        ins(%eo, %perm, %w, %dout : tensor<1024x1024xf32>, tensor<1024xi32>,
                                    tensor<512x2xf32>, tensor<512x1024xf32>)
        outs(%deo0, %dw0 : tensor<1024x1024xf32>, tensor<512x2xf32>)
        -> tensor<1024x1024xf32>, tensor<512x2xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$expert_out,
                       AnyRankedTensor:$permutation, AnyRankedTensor:$weights,
                       AnyRankedTensor:$dout,
                       Variadic<AnyRankedTensor>:$outs);
  let results = (outs AnyRankedTensor:$d_expert_out,
                      AnyRankedTensor:$d_weights);
  let assemblyFormat = [{
    `ins` `(` $expert_out `,` $permutation `,` $weights `,` $dout `:` type($expert_out) `,` type($permutation) `,` type($weights) `,` type($dout) `)`
    `outs` `(` $outs `:` type($outs) `)` attr-dict `->` type(results)
  }];
  let builders = [
    OpBuilder<(ins "::mlir::Value":$expertOut, "::mlir::Value":$permutation,
                   "::mlir::Value":$weights, "::mlir::Value":$dout,
                   "::mlir::Value":$dExpertOutInit,
                   "::mlir::Value":$dWeightsInit)>
  ];
}

#endif // MIXER_DIALECT_MIXER_IR_MIXERMOEBACKWARDOPS_TD
