//===- MixerScanOps.td - chunked linear-recurrence scans ---*- tablegen -*-===//
//
// Scans with a matrix state per head. Each takes an optional initial state
// and returns the final state, so a length-1 call with a state is one decode
// step.
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_DIALECT_MIXER_IR_MIXERSCANOPS_TD
#define MIXER_DIALECT_MIXER_IR_MIXERSCANOPS_TD

def Mixer_SsdOp : Mixer_StructuredOp<"ssd", [], ["checkTile"]> {
  let summary = "Mamba-2 state space duality (SSD) scan";
  let description = [{
    The selective state space scan of Mamba-2 with scalar decay per head.
    Operands: `x` [B, L, H, P], `log_a` [B, L, H] (dt * A, <= 0),
    `b` and `c` [B, L, G, N] with H % G == 0, an optional `init` state
    [B, H, P, N]. Head h reads group g = h / (H / G). Per head:

    ```
    S_t = exp(log_a_t) * S_{t-1} + x_t b_t^T      (S is P x N, S_{-1} = init or 0)
    y_t = S_t c_t
    ```

    Results: `y` [B, L, H, P] and the final state S_{L-1} [B, H, P, N], in
    the shapes of the two `outs` operands. `chunk_size` is the longest block
    of the chunked algorithm the lowering uses (the four steps of Mamba-2's
    SSD); it does not change the result, a target may take shorter blocks
    (its `scan_chunk_limit`: 16 tokens on CPUs) unless the op returns
    `chunk_states`, and L need not be a multiple of it.

    With a third `outs` operand the op also returns `chunk_states`
    [B, H, C, N, P], C = L / chunk_size + 1 (integer division): row j holds
    the state before token j * chunk_size, transposed (S^T, [N, P], as the
    chunked form carries it); the last row is where the partial last chunk
    starts. It is the residual that `mixer.ssd_backward` reads instead of
    recomputing the states: the forward form that training runs. When `y`
    and the final state have no uses, the lowering computes the chunk
    states alone (the state passing of each chunk, not its output).

    Parallel dimensions for tiling: B, H, P.

    ```mlir
    %y, %state = mixer.ssd chunk_size(64)
        ins(%x, %log_a, %b, %c : tensor<2x1024x8x64xf32>, tensor<2x1024x8xf32>,
                                 tensor<2x1024x1x128xf32>, tensor<2x1024x1x128xf32>)
        outs(%y0, %s0 : tensor<2x1024x8x64xf32>, tensor<2x8x64x128xf32>)
        -> tensor<2x1024x8x64xf32>, tensor<2x8x64x128xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$x, AnyRankedTensor:$log_a,
                       AnyRankedTensor:$b, AnyRankedTensor:$c,
                       Optional<AnyRankedTensor>:$init,
                       Variadic<AnyRankedTensor>:$outs,
                       I64Attr:$chunk_size);
  let results = (outs AnyRankedTensor:$y, AnyRankedTensor:$final_state,
                      Optional<AnyRankedTensor>:$chunk_states);
  let assemblyFormat = [{
    `chunk_size` `(` $chunk_size `)`
    `ins` `(` $x `,` $log_a `,` $b `,` $c `:` type($x) `,` type($log_a) `,` type($b) `,` type($c) `)`
    (`init` `(` $init^ `:` type($init) `)`)?
    `outs` `(` $outs `:` type($outs) `)` attr-dict `->` type(results)
  }];
  let builders = [
    /// A null `chunkStatesInit`: no chunk_states result.
    OpBuilder<(ins "::mlir::Value":$x, "::mlir::Value":$logA,
                   "::mlir::Value":$b, "::mlir::Value":$c,
                   "::mlir::Value":$init, "::mlir::Value":$yInit,
                   "::mlir::Value":$stateInit, "int64_t":$chunkSize,
                   CArg<"::mlir::Value", "{}">:$chunkStatesInit)>
  ];
}

def Mixer_SelectiveScanOp : Mixer_StructuredOp<"selective_scan", [], ["checkTile"]> {
  let summary = "Mamba-1 selective scan";
  let description = [{
    The selective state space scan of Mamba (S6) with a diagonal state
    matrix per channel. Operands: `u` and `delta` [B, L, D], `A` [D, N],
    `b` and `c` [B, L, G, N] with D % G == 0 (channel d reads group
    g = d / (D / G)), and the optional `D_skip` [D], `z` [B, L, D],
    `delta_bias` [D] and `init` state [B, D, N]. Per channel d and state
    index n:

    ```
    dt_t[d]   = delta_t[d] + delta_bias[d]              (delta_bias absent: 0)
    dt_t[d]   = softplus(dt_t[d])                       (only with delta_softplus;
                                                         softplus(x) = log1p(exp(x)), x for x > 20)
    h_t[d,n]  = exp(dt_t[d] A[d,n]) h_{t-1}[d,n] + dt_t[d] u_t[d] b_t[g,n]
                                                        (h_{-1} = init or 0)
    y_t[d]    = sum_n h_t[d,n] c_t[g,n] + D_skip[d] u_t[d]   (D_skip absent: 0)
    y_t[d]   *= silu(z_t[d])                            (only with z; silu(x) = x / (1 + exp(-x)))
    ```

    Results: `y` [B, L, D] and the final state h_{L-1} [B, D, N], in the
    shapes of the two `outs` operands. The lowering picks its own blocking
    of L and never materializes the [B, L, D, N] states.

    Parallel dimensions for tiling: B, D. A channel tile maps to the group
    tile of `b` and `c` it reads, so it must lie within one group or cover
    whole groups.

    ```mlir
    %y, %state = mixer.selective_scan delta_softplus
        ins(%u, %delta, %A, %b, %c : tensor<2x1024x1536xf32>, tensor<2x1024x1536xf32>,
                                     tensor<1536x16xf32>, tensor<2x1024x1x16xf32>,
                                     tensor<2x1024x1x16xf32>)
        D_skip(%d : tensor<1536xf32>) z(%z : tensor<2x1024x1536xf32>)
        delta_bias(%db : tensor<1536xf32>)
        outs(%y0, %s0 : tensor<2x1024x1536xf32>, tensor<2x1536x16xf32>)
        -> tensor<2x1024x1536xf32>, tensor<2x1536x16xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$u, AnyRankedTensor:$delta,
                       AnyRankedTensor:$A, AnyRankedTensor:$b,
                       AnyRankedTensor:$c,
                       Optional<AnyRankedTensor>:$D_skip,
                       Optional<AnyRankedTensor>:$z,
                       Optional<AnyRankedTensor>:$delta_bias,
                       Optional<AnyRankedTensor>:$init,
                       Variadic<AnyRankedTensor>:$outs,
                       UnitAttr:$delta_softplus);
  let results = (outs AnyRankedTensor:$y, AnyRankedTensor:$final_state);
  let assemblyFormat = [{
    (`delta_softplus` $delta_softplus^)?
    `ins` `(` $u `,` $delta `,` $A `,` $b `,` $c `:` type($u) `,` type($delta) `,` type($A) `,` type($b) `,` type($c) `)`
    (`D_skip` `(` $D_skip^ `:` type($D_skip) `)`)?
    (`z` `(` $z^ `:` type($z) `)`)?
    (`delta_bias` `(` $delta_bias^ `:` type($delta_bias) `)`)?
    (`init` `(` $init^ `:` type($init) `)`)?
    `outs` `(` $outs `:` type($outs) `)` attr-dict `->` type(results)
  }];
  let builders = [
    /// Absent optional operands are null values.
    OpBuilder<(ins "::mlir::Value":$u, "::mlir::Value":$delta,
                   "::mlir::Value":$A, "::mlir::Value":$b,
                   "::mlir::Value":$c, "::mlir::Value":$dSkip,
                   "::mlir::Value":$z, "::mlir::Value":$deltaBias,
                   "::mlir::Value":$init, "::mlir::Value":$yInit,
                   "::mlir::Value":$stateInit, "bool":$deltaSoftplus)>
  ];
}

def Mixer_LinearAttentionOp
    : Mixer_StructuredOp<"linear_attention", [], ["checkTile"]> {
  let summary = "causal linear attention with optional decay and window";
  let description = [{
    Causal (optionally decayed) linear attention with a matrix state per
    head; with `window` > 0 it is the residual branch of RAttention, which
    sees only the tokens that left a sliding window of that size.
    Operands: `q` and `k` [B, L, H, Dk], `v` [B, L, H, Dv], an optional
    `log_decay` [B, L, H] and an optional `init` state [B, H, Dk, Dv].
    Per head, with w = `window`:

    ```
    S_t = exp(log_decay_t) S_{t-1} + k_t v_t^T    (S is Dk x Dv, log_decay absent: 0,
                                                   S_j for j < 0 is init or 0)
    o_t = scale * S_{t-w-1}^T q_t                 when w > 0
    o_t = scale * S_t^T q_t                       when w == 0
    ```

    Results: `o` [B, L, H, Dv] and the final state S_{L-1} [B, H, Dk, Dv],
    in the shapes of the two `outs` operands. `chunk_size` (> 0) is the
    longest block of the chunked algorithm; it does not change the result, a
    target may take shorter blocks (its `scan_chunk_limit`: 16 tokens on
    CPUs) unless the op returns `chunk_states`, and L need not be a multiple
    of it. `window` (>= 0) defaults to 0, `scale` to 1.0.

    With a third `outs` operand (window 0 only) the op also returns
    `chunk_states` [B, H, C, Dk, Dv], C = L / chunk_size + 1 (integer
    division): row j holds the state S before token j * chunk_size, the last
    row where the partial last chunk starts. It is the residual that
    `mixer.linear_attention_backward` reads instead of recomputing the
    states. When `o` and the final state have no uses, the lowering
    computes the chunk states alone.

    Parallel dimensions for tiling: B, H, Dv (the Dv columns of the state
    are independent).

    ```mlir
    %o, %state = mixer.linear_attention chunk_size(64) window(512) scale(1.250000e-01)
        ins(%q, %k, %v : tensor<2x4096x8x64xf32>, tensor<2x4096x8x64xf32>, tensor<2x4096x8x64xf32>)
        log_decay(%ld : tensor<2x4096x8xf32>)
        outs(%o0, %s0 : tensor<2x4096x8x64xf32>, tensor<2x8x64x64xf32>)
        -> tensor<2x4096x8x64xf32>, tensor<2x8x64x64xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$q, AnyRankedTensor:$k,
                       AnyRankedTensor:$v,
                       Optional<AnyRankedTensor>:$log_decay,
                       Optional<AnyRankedTensor>:$init,
                       Variadic<AnyRankedTensor>:$outs,
                       I64Attr:$chunk_size,
                       DefaultValuedAttr<I64Attr, "0">:$window,
                       DefaultValuedAttr<F32Attr, "1.0f">:$scale);
  let results = (outs AnyRankedTensor:$o, AnyRankedTensor:$final_state,
                      Optional<AnyRankedTensor>:$chunk_states);
  // Tiles: one batch entry and the target's block of heads per tile (its
  // CPU lowering runs their chunk steps inside the chunk loop), the whole
  // value dim.
  let parallelTilePolicy = "return headBlockTile(getQ(), target);";

  let assemblyFormat = [{
    `chunk_size` `(` $chunk_size `)`
    (`window` `(` $window^ `)`)?
    (`scale` `(` $scale^ `)`)?
    `ins` `(` $q `,` $k `,` $v `:` type($q) `,` type($k) `,` type($v) `)`
    (`log_decay` `(` $log_decay^ `:` type($log_decay) `)`)?
    (`init` `(` $init^ `:` type($init) `)`)?
    `outs` `(` $outs `:` type($outs) `)` attr-dict `->` type(results)
  }];
  let builders = [
    /// Absent optional operands are null values; a null `chunkStatesInit`:
    /// no chunk_states result.
    OpBuilder<(ins "::mlir::Value":$q, "::mlir::Value":$k,
                   "::mlir::Value":$v, "::mlir::Value":$logDecay,
                   "::mlir::Value":$init, "::mlir::Value":$oInit,
                   "::mlir::Value":$stateInit, "int64_t":$chunkSize,
                   CArg<"int64_t", "0">:$window, CArg<"float", "1.0f">:$scale,
                   CArg<"::mlir::Value", "{}">:$chunkStatesInit)>
  ];
}

def Mixer_GatedDeltaRuleOp
    : Mixer_StructuredOp<"gated_delta_rule", [], ["checkTile"]> {
  let summary = "Gated DeltaNet scan (gated delta rule)";
  let description = [{
    The gated delta rule of Gated DeltaNet: a matrix state per head, decayed
    by a scalar gate and corrected towards each new key-value pair.
    Operands: `q` and `k` [B, L, H, Dk], `v` [B, L, H, Dv], the log gate
    `g` [B, L, H] (<= 0), the write strength `beta` [B, L, H] and an
    optional `init` state [B, H, Dk, Dv]. Per head:

    ```
    S_t = exp(g_t) (I - beta_t k_t k_t^T) S_{t-1} + beta_t k_t v_t^T
                                                  (S is Dk x Dv, S_{-1} = init or 0)
    o_t = scale * S_t^T q_t
    ```

    Results: `o` [B, L, H, Dv] and the final state S_{L-1} [B, H, Dk, Dv],
    in the shapes of the two `outs` operands. `chunk_size` (> 0) is the
    longest block of the chunked (WY / UT) algorithm; it does not change the
    result, a target may take shorter blocks (its `scan_chunk_limit`: 16
    tokens on CPUs), and L need not be a multiple of it. `scale` defaults to
    1.0.

    Parallel dimensions for tiling: B, H, Dv (the Dv columns of the state
    are independent).

    ```mlir
    %o, %state = mixer.gated_delta_rule chunk_size(64) scale(1.250000e-01)
        ins(%q, %k, %v, %g, %beta : tensor<2x4096x8x64xf32>, tensor<2x4096x8x64xf32>,
                                    tensor<2x4096x8x128xf32>, tensor<2x4096x8xf32>,
                                    tensor<2x4096x8xf32>)
        init(%h : tensor<2x8x64x128xf32>)
        outs(%o0, %s0 : tensor<2x4096x8x128xf32>, tensor<2x8x64x128xf32>)
        -> tensor<2x4096x8x128xf32>, tensor<2x8x64x128xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$q, AnyRankedTensor:$k,
                       AnyRankedTensor:$v, AnyRankedTensor:$g,
                       AnyRankedTensor:$beta,
                       Optional<AnyRankedTensor>:$init,
                       Variadic<AnyRankedTensor>:$outs,
                       I64Attr:$chunk_size,
                       DefaultValuedAttr<F32Attr, "1.0f">:$scale);
  let results = (outs AnyRankedTensor:$o, AnyRankedTensor:$final_state);
  // Tiles: one batch entry and the target's block of heads per tile (its
  // CPU lowering runs their chunk steps inside the chunk loop), the whole
  // value dim.
  let parallelTilePolicy = "return headBlockTile(getQ(), target);";

  let assemblyFormat = [{
    `chunk_size` `(` $chunk_size `)`
    (`scale` `(` $scale^ `)`)?
    `ins` `(` $q `,` $k `,` $v `,` $g `,` $beta `:` type($q) `,` type($k) `,` type($v) `,` type($g) `,` type($beta) `)`
    (`init` `(` $init^ `:` type($init) `)`)?
    `outs` `(` $outs `:` type($outs) `)` attr-dict `->` type(results)
  }];
  let builders = [
    /// An absent `init` is a null value.
    OpBuilder<(ins "::mlir::Value":$q, "::mlir::Value":$k,
                   "::mlir::Value":$v, "::mlir::Value":$g,
                   "::mlir::Value":$beta, "::mlir::Value":$init,
                   "::mlir::Value":$oInit, "::mlir::Value":$stateInit,
                   "int64_t":$chunkSize, CArg<"float", "1.0f">:$scale)>
  ];
}

#endif // MIXER_DIALECT_MIXER_IR_MIXERSCANOPS_TD
