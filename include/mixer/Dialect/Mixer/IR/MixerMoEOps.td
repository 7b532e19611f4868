//===- MixerMoEOps.td - mixture-of-experts ops -------------*- tablegen -*-===//
//
// The ops of a dropless MoE layer: top-k routing, dispatch (tokens sorted by
// expert into group sizes and a permutation), the grouped GEMMs over the
// sorted rows, and the weighted combine back to token order:
//
//   combine(grouped_matmul(grouped_swiglu(dispatch(x, topk_router(logits)))))
//
// Rows of group e are offset_e .. offset_e + size_e - 1 where offset is the
// exclusive prefix sum of group_sizes. The `outs` operands only give the
// result shapes: every element of every result is written, none is read.
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_DIALECT_MIXER_IR_MIXERMOEOPS_TD
#define MIXER_DIALECT_MIXER_IR_MIXERMOEOPS_TD

def Mixer_GroupedMatmulOp : Mixer_TiledDestinationOp<"grouped_matmul"> {
  let summary = "grouped (ragged) matmul: one weight matrix per row group";
  let description = [{
    Multiplies consecutive row groups of `lhs` by one matrix of `rhs` each.
    Operands: `lhs` [T, K] with rows sorted by group, `rhs` [E, K, N] or
    its panels [E, P, K, W] from `mixer.pack_weights` (then N must be
    static and P = ceil(N / W)), `group_sizes` [E] (i32 or i64). With
    offset_e = sum_{e' < e} size_e' (the exclusive prefix sum of
    `group_sizes`):

    ```
    out[r, :] = lhs[r, :] rhs[e]     for offset_e <= r < offset_e + size_e
    out[r, :] = 0                    for sum_e size_e <= r < T
    ```

    Result: `out` [T, N], in the shape of the `outs` operand (not read).
    Empty groups (size 0) are legal. The group sizes are run-time values
    that should be non-negative and sum to at most T; the verifier checks
    shapes only, and the lowerings never write out of bounds: a negative
    size counts as 0 and a group is cut at row T. T may be dynamic.

    Parallel dimension for tiling: N (the columns of `rhs` and `out`). Rows
    are tied to groups by run-time sizes, so T is not tiled. A tile of
    packed weights is whole panels: a column tile must start at a multiple
    of W. Packed weights are for inference: the op's VJP needs the
    [E, K, N] form.

    ```mlir
    %out = mixer.grouped_matmul
        ins(%lhs, %rhs, %sizes : tensor<?x1024xf32>, tensor<8x1024x512xf32>, tensor<8xi64>)
        outs(%init : tensor<?x512xf32>) -> tensor<?x512xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$lhs, AnyRankedTensor:$rhs,
                       AnyRankedTensor:$group_sizes,
                       Variadic<AnyRankedTensor>:$outs);
  let results = (outs AnyRankedTensor:$out);
  // Tiles: column blocks of the output (rows are tied to groups by run-time
  // values), whole panels of packed weights.
  let parallelTilePolicy = [{
    return columnBlockTile(getOuts()[0], panelWidthOf(getRhs()));
  }];

  let assemblyFormat = [{
    `ins` `(` $lhs `,` $rhs `,` $group_sizes `:` type($lhs) `,` type($rhs) `,` type($group_sizes) `)`
    `outs` `(` $outs `:` type($outs) `)` attr-dict `->` type(results)
  }];
  let builders = [
    OpBuilder<(ins "::mlir::Value":$lhs, "::mlir::Value":$rhs,
                   "::mlir::Value":$groupSizes, "::mlir::Value":$outInit)>
  ];
}

def Mixer_GroupedSwigluOp : Mixer_TiledDestinationOp<"grouped_swiglu"> {
  let summary = "grouped SwiGLU: the fused front half of the experts";
  let description = [{
    The gated front half of every expert over its row group, without a
    full-size gate or up intermediate. Operands: `x` [T, K] with rows sorted
    by group, `w_gate` and `w_up` [E, K, F] or both their panels
    [E, P, K, W] from `mixer.pack_weights` (then F must be static and
    P = ceil(F / W)), `group_sizes` [E] (i32 or i64).
    With offset_e the exclusive prefix sum of `group_sizes` and
    silu(z) = z / (1 + exp(-z)):

    ```
    out[r, :] = silu(x[r, :] w_gate[e]) * (x[r, :] w_up[e])
                                     for offset_e <= r < offset_e + size_e
    out[r, :] = 0                    for sum_e size_e <= r < T
    ```

    (the product is elementwise). Result: `out` [T, F], in the shape of the
    `outs` operand (not read). Empty groups are legal; the sizes should be
    non-negative and sum to at most T at run time, and the lowerings never
    write out of bounds: a negative size counts as 0 and a group is cut at
    row T. T may be dynamic.

    Parallel dimension for tiling: F (the columns of both weights and of
    `out`); T is not tiled. As for grouped_matmul, a tile of packed weights
    is whole panels, and the VJP needs the [E, K, F] form.

    ```mlir
    %h = mixer.grouped_swiglu
        ins(%x, %w_gate, %w_up, %sizes : tensor<?x1024xf32>, tensor<8x1024x2816xf32>,
                                         tensor<8x1024x2816xf32>, tensor<8xi32>)
        outs(%init : tensor<?x2816xf32>) -> tensor<?x2816xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$x, AnyRankedTensor:$w_gate,
                       AnyRankedTensor:$w_up, AnyRankedTensor:$group_sizes,
                       Variadic<AnyRankedTensor>:$outs);
  let results = (outs AnyRankedTensor:$out);
  // Tiles: column blocks of the output (rows are tied to groups by run-time
  // values), whole panels of packed weights.
  let parallelTilePolicy = [{
    return columnBlockTile(getOuts()[0], panelWidthOf(getWGate()));
  }];

  let assemblyFormat = [{
    `ins` `(` $x `,` $w_gate `,` $w_up `,` $group_sizes `:` type($x) `,` type($w_gate) `,` type($w_up) `,` type($group_sizes) `)`
    `outs` `(` $outs `:` type($outs) `)` attr-dict `->` type(results)
  }];
  let builders = [
    OpBuilder<(ins "::mlir::Value":$x, "::mlir::Value":$wGate,
                   "::mlir::Value":$wUp, "::mlir::Value":$groupSizes,
                   "::mlir::Value":$outInit)>
  ];
}

def Mixer_PackWeightsOp : Mixer_DestinationOp<"pack_weights"> {
  let summary = "expert weights in column panels, packed once for many calls";
  let description = [{
    Lays out the weights of a grouped GEMM the way its CPU micro-kernel
    reads them, so that weights reused across calls (an inference model's
    experts) are packed once instead of on every `mixer.grouped_matmul` or
    `mixer.grouped_swiglu`. Operand: `weights` [E, K, N]. Result: `packed`
    [E, P, K, W] in the shape of the `outs` operand (not read), with a
    static panel width W > 0 and P = ceil(N / W) panels:

    ```
    packed[e, p, k, j] = weights[e, k, p * W + j]    for p * W + j < N
    packed[e, p, k, j] = 0                           otherwise
    ```

    Each panel [K, W] is contiguous, so the micro-kernel reads its rows from
    consecutive cache lines. The grouped ops take `packed` in place of their
    [E, K, N] weights and then skip their own packing. Any W is correct; the
    fast one is the micro-kernel's width, two vector registers: 32 with
    AVX-512, 16 with AVX2 (`mixer-compile` and the JIT report it as
    `registerTileColumns` of the target description).

    Not tileable (it runs once per weight, not per call).

    ```mlir
    %packed = mixer.pack_weights ins(%w : tensor<8x512x512xf32>)
        outs(%p0 : tensor<8x16x512x32xf32>) -> tensor<8x16x512x32xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$weights,
                       Variadic<AnyRankedTensor>:$outs);
  let results = (outs AnyRankedTensor:$packed);
  let assemblyFormat = [{
    `ins` `(` $weights `:` type($weights) `)`
    `outs` `(` $outs `:` type($outs) `)` attr-dict `->` type(results)
  }];
  let builders = [
    OpBuilder<(ins "::mlir::Value":$weights, "::mlir::Value":$packedInit)>
  ];
}

def Mixer_TopkRouterOp : Mixer_TiledDestinationOp<"topk_router"> {
  let summary = "top-k softmax gating of tokens over experts";
  let description = [{
    Picks the k most probable experts of each token. Operand: `logits`
    [T, E]; attributes `k` (1 <= k <= E) and the unit attribute `normalize`.
    Per token t:

    ```
    p[e]          = exp(logits[t, e]) / sum_e' exp(logits[t, e'])
    expert_ids[t] = the k experts of largest p, in descending p
                    (equal p: the lower expert index first)
    weights[t, j] = p[expert_ids[t, j]]                         without normalize
    weights[t, j] = p[expert_ids[t, j]] / sum_j' p[expert_ids[t, j']]  with normalize
    ```

    Results: `weights` [T, k] f32 and `expert_ids` [T, k] i32, in the shapes
    of the two `outs` operands (not read). T may be dynamic.

    Parallel dimension for tiling: T (tokens are independent).

    ```mlir
    %w, %ids = mixer.topk_router k(2) normalize
        ins(%logits : tensor<?x8xf32>)
        outs(%w0, %ids0 : tensor<?x2xf32>, tensor<?x2xi32>)
        -> tensor<?x2xf32>, tensor<?x2xi32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$logits,
                       Variadic<AnyRankedTensor>:$outs,
                       I64Attr:$k, UnitAttr:$normalize);
  let results = (outs AnyRankedTensor:$weights, AnyRankedTensor:$expert_ids);
  // Tiles: blocks of tokens.
  let parallelTilePolicy = "return {target.parallelRowBlock};";

  let assemblyFormat = [{
    `k` `(` $k `)` (`normalize` $normalize^)?
    `ins` `(` $logits `:` type($logits) `)`
    `outs` `(` $outs `:` type($outs) `)` attr-dict `->` type(results)
  }];
  let builders = [
    OpBuilder<(ins "::mlir::Value":$logits, "::mlir::Value":$weightsInit,
                   "::mlir::Value":$expertIdsInit, "int64_t":$k,
                   CArg<"bool", "false">:$normalize)>
  ];
}

def Mixer_MoeDispatchOp : Mixer_DestinationOp<"moe_dispatch"> {
  let summary = "sort token-expert assignments by expert";
  let description = [{
    Gathers the tokens of each expert into consecutive rows, the layout
    that `mixer.grouped_swiglu` and `mixer.grouped_matmul` read. Operands:
    `x` [T, K] and `expert_ids` [T, k] i32 (each id in [0, E) at run time);
    attribute `num_experts` (E > 0). Assignment slot a = t * k + j sends
    token t to expert expert_ids[t, j]. The T * k slots are sorted stably by
    expert (slots of one expert keep their order):

    ```
    group_sizes[e]  = #{ a : expert_ids[a / k, a % k] == e }
    permutation[r]  = the slot a sorted to row r
    sorted[r, :]    = x[permutation[r] / k, :]
    ```

    Results: `sorted` [T*k, K] f32, `group_sizes` [E] i64 and
    `permutation` [T*k] i32, in the shapes of the three `outs` operands (not
    read). T may be dynamic; when T and k are static the verifier checks
    the T*k rows.

    Not tileable, so it has no TilingInterface: the sort is global (any
    sorted row may come from any token, and each group size counts all
    tokens), so no tile of the results is computed from a tile of the
    operands. The op is still in destination-passing style, like every
    mixer op, so that bufferization writes the results in place.

    ```mlir
    %sorted, %sizes, %perm = mixer.moe_dispatch num_experts(8)
        ins(%x, %ids : tensor<512x1024xf32>, tensor<512x2xi32>)
        outs(%s0, %g0, %p0 : tensor<1024x1024xf32>, tensor<8xi64>, tensor<1024xi32>)
        -> tensor<1024x1024xf32>, tensor<8xi64>, tensor<1024xi32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$x, AnyRankedTensor:$expert_ids,
                       Variadic<AnyRankedTensor>:$outs,
                       I64Attr:$num_experts);
  let results = (outs AnyRankedTensor:$sorted, AnyRankedTensor:$group_sizes,
                      AnyRankedTensor:$permutation);
  let assemblyFormat = [{
    `num_experts` `(` $num_experts `)`
    `ins` `(` $x `,` $expert_ids `:` type($x) `,` type($expert_ids) `)`
    `outs` `(` $outs `:` type($outs) `)` attr-dict `->` type(results)
  }];
  let builders = [
    OpBuilder<(ins "::mlir::Value":$x, "::mlir::Value":$expertIds,
                   "::mlir::Value":$sortedInit,
                   "::mlir::Value":$groupSizesInit,
                   "::mlir::Value":$permutationInit, "int64_t":$numExperts)>
  ];
}

def Mixer_MoeCombineOp : Mixer_TiledDestinationOp<"moe_combine"> {
  let summary = "weighted sum of the expert outputs back in token order";
  let description = [{
    Undoes `mixer.moe_dispatch`: each token sums its k expert outputs
    weighted by its routing weights. Operands: `expert_out` [T*k, N] (rows
    in dispatch order), `permutation` [T*k] i32 (a permutation of the slots
    0 .. T*k-1 at run time), `weights` [T, k] f32:

    ```
    out[t, :] = sum_j weights[t, j] * expert_out[r, :]   where permutation[r] = t * k + j
    ```

    Result: `out` [T, N], in the shape of the `outs` operand (not read).
    T may be dynamic; when T and k are static the verifier checks the T*k
    rows.

    Parallel dimension for tiling: N (the columns of `expert_out` and
    `out`). T is not tiled: the rows of a token are scattered over
    `expert_out` by the run-time permutation.

    ```mlir
    %y = mixer.moe_combine
        ins(%eo, %perm, %w : tensor<1024x1024xf32>, tensor<1024xi32>, tensor<512x2xf32>)
        outs(%init : tensor<512x1024xf32>) -> tensor<512x1024xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$expert_out,
                       AnyRankedTensor:$permutation, AnyRankedTensor:$weights,
                       Variadic<AnyRankedTensor>:$outs);
  let results = (outs AnyRankedTensor:$out);
  // Tiles: none: the lowering is a parallel gather over the tokens (after
  // inverting the permutation, which every tile would repeat).
  let parallelTilePolicy = "return {};";

  let assemblyFormat = [{
    `ins` `(` $expert_out `,` $permutation `,` $weights `:` type($expert_out) `,` type($permutation) `,` type($weights) `)`
    `outs` `(` $outs `:` type($outs) `)` attr-dict `->` type(results)
  }];
  let builders = [
    OpBuilder<(ins "::mlir::Value":$expertOut, "::mlir::Value":$permutation,
                   "::mlir::Value":$weights, "::mlir::Value":$outInit)>
  ];
}

#endif // MIXER_DIALECT_MIXER_IR_MIXERMOEOPS_TD
