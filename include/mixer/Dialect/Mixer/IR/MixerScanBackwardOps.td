//===- MixerScanBackwardOps.td - backward ops -*- tablegen -*-===//
//
// One backward op per differentiable scan op: the op's inputs, the
// cotangents of its results and the residuals its forward saved in; the
// cotangent of every array input out.
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_DIALECT_MIXER_IR_MIXERSCANBACKWARDOPS_TD
#define MIXER_DIALECT_MIXER_IR_MIXERSCANBACKWARDOPS_TD

//===----------------------------------------------------------------------===//
// ssd and linear_attention: a chunked reverse scan
//===----------------------------------------------------------------------===//

def Mixer_SsdBackwardOp
    : Mixer_StructuredOp<"ssd_backward", [], ["checkTile"]> {
  let summary = "the vector-Jacobian product of mixer.ssd";
  let description = [{
    The gradients of `mixer.ssd` with respect to its array inputs. Operands:
    the forward inputs `x` [B, L, H, P], `log_a` [B, L, H], `b` and `c`
    [B, L, G, N] and the optional `init` [B, H, P, N]; optionally the
    forward's `chunk_states` [B, H, C, N, P] (C = L / chunk_size + 1, the
    `chunk_states` result of `mixer.ssd` with the same `chunk_size`: row j
    is the state before token j * chunk_size, transposed); the optional
    output cotangents `dy` [B, L, H, P] and `d_final_state` [B, H, P, N]
    (absent: zero). Results, in the shapes of the `outs` operands: `dx`,
    `dlog_a`, `db`, `dc` and, only when `init` is present, `dinit`.

    Per head h of group g, with a_t = exp(log_a_t), the state cotangent
    D_t (P x N) runs backwards in time and gives every gradient:

    ```
    D_{L-1} = d_final_state + dy_{L-1} c_{L-1}^T
    D_t     = a_{t+1} D_{t+1} + dy_t c_t^T
    dx_t    = D_t b_t
    db_t    = sum_{h in g} D_t^T x_t
    dc_t    = sum_{h in g} S_t^T dy_t          (S_t the forward state)
    dinit   = a_0 D_0
    dlog_a_k = <D_k, a_k S_{k-1}>
    ```

    The lowering is a reverse scan over the chunks carrying D: per chunk,
    from the saved state at its start and D at its end, it recomputes the
    chunk's intra-chunk products and forms every gradient of the chunk with
    matrix products (docs/Backward.md). Without `chunk_states` it first
    recomputes them with the forward's state passing. No per-token state is
    formed: memory beyond operands and results is the chunk states.

    Parallel dimensions for tiling: B, H. A head tile must cover whole groups
    (db and dc sum over the heads of a group) and divide H (the lowering
    needs a static number of heads in every tile).

    ```mlir
    %dx, %dla, %db, %dc = mixer.ssd_backward chunk_size(64)
        ins(%x, %log_a, %b, %c : tensor<2x1024x8x64xf32>, tensor<2x1024x8xf32>,
                                 tensor<2x1024x1x128xf32>, tensor<2x1024x1x128xf32>)
        chunk_states(%s : tensor<2x8x17x128x64xf32>)
        dy(%dy : tensor<2x1024x8x64xf32>)
        outs(%dx0, %dla0, %db0, %dc0 : tensor<2x1024x8x64xf32>, tensor<2x1024x8xf32>,
                                       tensor<2x1024x1x128xf32>, tensor<2x1024x1x128xf32>)
        -> tensor<2x1024x8x64xf32>, tensor<2x1024x8xf32>,
           tensor<2x1024x1x128xf32>, tensor<2x1024x1x128xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$x, AnyRankedTensor:$log_a,
                       AnyRankedTensor:$b, AnyRankedTensor:$c,
                       Optional<AnyRankedTensor>:$init,
                       Optional<AnyRankedTensor>:$chunk_states,
                       Optional<AnyRankedTensor>:$dy,
                       Optional<AnyRankedTensor>:$d_final_state,
                       Variadic<AnyRankedTensor>:$outs,
                       I64Attr:$chunk_size);
  let results = (outs Variadic<AnyRankedTensor>:$grads);
  // Tiles: one batch entry and one group of heads per tile (the gradients of b
  // and c sum over a group's heads).
  let parallelTilePolicy = "return groupTile(getX(), getB());";

  let assemblyFormat = [{
    `chunk_size` `(` $chunk_size `)`
    `ins` `(` $x `,` $log_a `,` $b `,` $c `:` type($x) `,` type($log_a) `,` type($b) `,` type($c) `)`
    (`init` `(` $init^ `:` type($init) `)`)?
    (`chunk_states` `(` $chunk_states^ `:` type($chunk_states) `)`)?
    (`dy` `(` $dy^ `:` type($dy) `)`)?
    (`d_final_state` `(` $d_final_state^ `:` type($d_final_state) `)`)?
    `outs` `(` $outs `:` type($outs) `)` attr-dict `->` type($grads)
  }];
  let builders = [
    /// Absent optional operands are null values; `outs` holds dx, dlog_a,
    /// db, dc and, with `init`, dinit.
    OpBuilder<(ins "::mlir::Value":$x, "::mlir::Value":$logA,
                   "::mlir::Value":$b, "::mlir::Value":$c,
                   "::mlir::Value":$init, "::mlir::Value":$chunkStates,
                   "::mlir::Value":$dy, "::mlir::Value":$dFinalState,
                   "::mlir::ValueRange":$outs, "int64_t":$chunkSize)>
  ];
}

def Mixer_LinearAttentionBackwardOp
    : Mixer_StructuredOp<"linear_attention_backward", [], ["checkTile"]> {
  let summary = "the vector-Jacobian product of mixer.linear_attention";
  let description = [{
    The gradients of `mixer.linear_attention` with respect to its array
    inputs. Operands: the forward inputs `q` and `k` [B, L, H, Dk], `v`
    [B, L, H, Dv], the optional `log_decay` [B, L, H] and `init`
    [B, H, Dk, Dv]; the optional
    cotangents `dout` [B, L, H, Dv] and `d_final_state` [B, H, Dk, Dv] (absent:
    zero). `chunk_size`, `window` and `scale` are the forward's. Results, in
    the shapes of the `outs` operands: `dq`, `dk`, `dv`, then `dlog_decay`
    only when `log_decay` is present and `dinit` only when `init` is.

    Linear attention is mixer.ssd with one group per head, x = v, b = k,
    c = q, the state transposed and y scaled: o = scale * ssd(v, log_decay,
    k, q, init^T). With a window w > 0, o_t reads the state S_{t-w-1} (init
    before the first token): the query q_t acts at position t-w-1, so the
    window is a shift of q and do by w+1 tokens, and the queries of the
    first w+1 tokens read init alone:

    ```
    q'_t  = q_{t+w+1},  do'_t = do_{t+w+1}       (0 past the end)
    dq_t  = dq'_{t-w-1}                          (t > w)
    dq_t  = scale * init do_t                    (t <= w)
    dinit = dinit' + scale * sum_{t<=w} q_t do_t^T
    ```

    where the primed gradients are those of window 0 with q' and do'. The op
    has no lowering of its own: mixer-decompose-composites rewrites it into
    a `mixer.ssd_backward` and elementwise linalg ops. With `chunk_states`
    [B, H, C, Dk, Dv] (C = L / chunk_size + 1, the `chunk_states` result
    of `mixer.linear_attention` with the same `chunk_size`; window 0 only)
    the states before each chunk are read instead of recomputed.

    Parallel dimensions for tiling: B, H. A head tile must divide H (the
    lowering needs a static number of heads in every tile).

    ```mlir
    %dq, %dk, %dv, %dld = mixer.linear_attention_backward chunk_size(64) scale(1.250000e-01)
        ins(%q, %k, %v : tensor<2x4096x8x64xf32>, tensor<2x4096x8x64xf32>, tensor<2x4096x8x64xf32>)
        log_decay(%ld : tensor<2x4096x8xf32>)
        dout(%do : tensor<2x4096x8x64xf32>)
        outs(%dq0, %dk0, %dv0, %dld0 : tensor<2x4096x8x64xf32>, tensor<2x4096x8x64xf32>,
                                       tensor<2x4096x8x64xf32>, tensor<2x4096x8xf32>)
        -> tensor<2x4096x8x64xf32>, tensor<2x4096x8x64xf32>,
           tensor<2x4096x8x64xf32>, tensor<2x4096x8xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$q, AnyRankedTensor:$k,
                       AnyRankedTensor:$v,
                       Optional<AnyRankedTensor>:$log_decay,
                       Optional<AnyRankedTensor>:$init,
                       Optional<AnyRankedTensor>:$dout,
                       Optional<AnyRankedTensor>:$d_final_state,
                       Optional<AnyRankedTensor>:$chunk_states,
                       Variadic<AnyRankedTensor>:$outs,
                       I64Attr:$chunk_size,
                       DefaultValuedAttr<I64Attr, "0">:$window,
                       DefaultValuedAttr<F32Attr, "1.0f">:$scale);
  let results = (outs Variadic<AnyRankedTensor>:$grads);
  // Tiles: one (batch, head) per tile.
  let parallelTilePolicy = "return {1, 1};";

  let assemblyFormat = [{
    `chunk_size` `(` $chunk_size `)`
    (`window` `(` $window^ `)`)?
    (`scale` `(` $scale^ `)`)?
    `ins` `(` $q `,` $k `,` $v `:` type($q) `,` type($k) `,` type($v) `)`
    (`log_decay` `(` $log_decay^ `:` type($log_decay) `)`)?
    (`init` `(` $init^ `:` type($init) `)`)?
    (`chunk_states` `(` $chunk_states^ `:` type($chunk_states) `)`)?
    (`dout` `(` $dout^ `:` type($dout) `)`)?
    (`d_final_state` `(` $d_final_state^ `:` type($d_final_state) `)`)?
    `outs` `(` $outs `:` type($outs) `)` attr-dict `->` type($grads)
  }];
  let builders = [
    /// Absent optional operands are null values; `outs` holds dq, dk, dv
    /// and, when present, dlog_decay and dinit.
    OpBuilder<(ins "::mlir::Value":$q, "::mlir::Value":$k,
                   "::mlir::Value":$v, "::mlir::Value":$logDecay,
                   "::mlir::Value":$init,
                   "::mlir::Value":$dOut, "::mlir::Value":$dFinalState,
                   "::mlir::ValueRange":$outs, "int64_t":$chunkSize,
                   "int64_t":$window, "float":$scale,
                   CArg<"::mlir::Value", "{}">:$chunkStates)>
  ];
}

//===----------------------------------------------------------------------===//
// Recurrent scans: selective_scan
//===----------------------------------------------------------------------===//

def Mixer_SelectiveScanBackwardOp
    : Mixer_StructuredOp<"selective_scan_backward", [], ["checkTile"]> {
  let summary = "gradients of mixer.selective_scan";
  let description = [{
    The vector-Jacobian product of `mixer.selective_scan`. Operands: the
    forward's inputs (`u`, `delta`, `A`, `b`, `c` and the optional `D_skip`,
    `z`, `delta_bias`, `init`, with `delta_softplus` as in the forward), the
    cotangents `dy` [B, L, D] of `y` and `d_final_state` [B, D, N] of the
    final state (either may be absent: a zero cotangent), and optionally
    the forward's chunk-boundary states `chunk_states` [B, D, C, N] with
    C = L / chunk_size + 1 (integer division): row j holds the state
    h_{j * chunk_size - 1} (h_{-1} = init or 0), i.e. the state before token
    j * chunk_size; the last row is where the partial last chunk starts.
    Without `chunk_states` the lowering recomputes them with a forward scan
    of the same chunks.

    Results, in the order of the `outs` (one per array input of the forward,
    optional ones only when the forward operand is present):
    `du`, `ddelta` [B, L, D], `dA` [B, D, N], `db`, `dc` [B, L, G, N],
    `dD_skip` [B, D], `dz` [B, L, D], `ddelta_bias` [B, D], `dinit` [B, D, N].
    The gradients of the batch-shared `A`, `D_skip` and `delta_bias` are
    returned per batch element (summing them over B gives the gradient), so
    that B stays a parallel dimension.

    With x_t = delta_t + delta_bias, dt_t = softplus(x_t) (or x_t),
    a_t = exp(dt_t A), p_t = sum_n h_t c_t + D_skip u_t (the output before
    the gate) and gy_t = dy_t silu(z_t) (or dy_t), the reverse recurrence
    per channel d and state index n, from dh_{L-1} = d_final_state:

    ```
    dh_t      = a_{t+1} dh_{t+1} + c_t gy_t            (the cotangent of h_t)
    dc_t     += sum_{d in group} h_t gy_t
    db_t     += sum_{d in group} dh_t dt_t u_t
    du_t      = sum_n dh_t b_t dt_t + D_skip gy_t
    ddt_t     = sum_n dh_t (b_t u_t + A a_t h_{t-1})
    ddelta_t  = ddt_t softplus'(x_t)  (or ddt_t; softplus' = sigmoid, 1 above 20)
    dA       += dt_t a_t dh_t h_{t-1}      dD_skip += gy_t u_t
    dz_t      = dy_t p_t silu'(z_t)        ddelta_bias += ddelta_t
    dinit     = a_0 dh_0
    ```

    The lowering runs a reverse scan over the chunks of `chunk_size`
    tokens carrying dh: per chunk it recomputes the chunk's states from its
    boundary state into a chunk-sized temporary, runs the recurrence above
    and forms the gradients of the chunk. No per-token state of the whole
    sequence is formed. Memory beyond the operands and results: the
    boundary states B * D * C * N (unless given) and per channel block two
    chunk temporaries.

    Parallel dimensions for tiling: B, D. `db` and `dc` sum over the
    channels of a group, so a channel tile must cover whole groups; it must
    also divide D (the lowering needs a static number of channels in every
    tile).

    ```mlir
    %du, %ddelta, %dA, %db, %dc, %dinit = mixer.selective_scan_backward
        chunk_size(16) delta_softplus
        ins(%u, %delta, %A, %b, %c : tensor<2x1024x64xf32>, tensor<2x1024x64xf32>,
                                     tensor<64x16xf32>, tensor<2x1024x2x16xf32>,
                                     tensor<2x1024x2x16xf32>)
        init(%h : tensor<2x64x16xf32>)
        dy(%dy : tensor<2x1024x64xf32>)
        outs(%0, %1, %2, %3, %4, %5 : tensor<2x1024x64xf32>, tensor<2x1024x64xf32>,
                                      tensor<2x64x16xf32>, tensor<2x1024x2x16xf32>,
                                      tensor<2x1024x2x16xf32>, tensor<2x64x16xf32>)
        -> tensor<2x1024x64xf32>, tensor<2x1024x64xf32>, tensor<2x64x16xf32>,
           tensor<2x1024x2x16xf32>, tensor<2x1024x2x16xf32>, tensor<2x64x16xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$u, AnyRankedTensor:$delta,
                       AnyRankedTensor:$A, AnyRankedTensor:$b,
                       AnyRankedTensor:$c,
                       Optional<AnyRankedTensor>:$D_skip,
                       Optional<AnyRankedTensor>:$z,
                       Optional<AnyRankedTensor>:$delta_bias,
                       Optional<AnyRankedTensor>:$init,
                       Optional<AnyRankedTensor>:$dy,
                       Optional<AnyRankedTensor>:$d_final_state,
                       Optional<AnyRankedTensor>:$chunk_states,
                       Variadic<AnyRankedTensor>:$outs,
                       I64Attr:$chunk_size,
                       UnitAttr:$delta_softplus);
  let results = (outs Variadic<AnyRankedTensor>:$grads);
  // Tiles: one batch entry and one group of channels per tile (the gradients of
  // b and c sum over a group's channels).
  let parallelTilePolicy = "return groupTile(getU(), getB());";

  let assemblyFormat = [{
    `chunk_size` `(` $chunk_size `)`
    (`delta_softplus` $delta_softplus^)?
    `ins` `(` $u `,` $delta `,` $A `,` $b `,` $c `:` type($u) `,` type($delta) `,` type($A) `,` type($b) `,` type($c) `)`
    (`D_skip` `(` $D_skip^ `:` type($D_skip) `)`)?
    (`z` `(` $z^ `:` type($z) `)`)?
    (`delta_bias` `(` $delta_bias^ `:` type($delta_bias) `)`)?
    (`init` `(` $init^ `:` type($init) `)`)?
    (`dy` `(` $dy^ `:` type($dy) `)`)?
    (`d_final_state` `(` $d_final_state^ `:` type($d_final_state) `)`)?
    (`chunk_states` `(` $chunk_states^ `:` type($chunk_states) `)`)?
    `outs` `(` $outs `:` type($outs) `)` attr-dict `->` type(results)
  }];
  let builders = [
    /// Absent optional operands are null values; `outs` holds one
    /// destination per gradient, in result order.
    OpBuilder<(ins "::mlir::Value":$u, "::mlir::Value":$delta,
                   "::mlir::Value":$A, "::mlir::Value":$b,
                   "::mlir::Value":$c, "::mlir::Value":$dSkip,
                   "::mlir::Value":$z, "::mlir::Value":$deltaBias,
                   "::mlir::Value":$init, "::mlir::Value":$dy,
                   "::mlir::Value":$dFinalState, "::mlir::Value":$chunkStates,
                   "::mlir::ValueRange":$outs, "int64_t":$chunkSize,
                   "bool":$deltaSoftplus)>
  ];
  let extraStructuredClassDeclaration = [{
    /// The number of gradients: five, plus one per optional operand of the
    /// forward that is present.
    unsigned getNumGradients() {
      return 5 + (getDSkip() ? 1 : 0) + (getZ() ? 1 : 0) +
             (getDeltaBias() ? 1 : 0) + (getInit() ? 1 : 0);
    }
  }];
}

//===----------------------------------------------------------------------===//
// Recurrent scans: gated_delta_rule
//===----------------------------------------------------------------------===//

def Mixer_GatedDeltaRuleBackwardOp
    : Mixer_StructuredOp<"gated_delta_rule_backward", [], ["checkTile"]> {
  let summary = "gradients of mixer.gated_delta_rule";
  let description = [{
    The vector-Jacobian product of `mixer.gated_delta_rule`. Operands: the
    forward's inputs (`q`, `k` [B, L, H, Dk], `v` [B, L, H, Dv], `g`, `beta`
    [B, L, H], the optional `init` [B, H, Dk, Dv], with `scale` as in the
    forward), the cotangents `d_o` [B, L, H, Dv] of `o` and `d_final_state`
    [B, H, Dk, Dv] of the final state (either may be absent: zero), and
    optionally the forward's chunk-boundary states `chunk_states`
    [B, H, C, Dk, Dv] with C = L / chunk_size + 1: row j holds S_{j * chunk_size - 1}
    (S_{-1} = init or 0). Without them the lowering recomputes them with a
    forward scan of the same chunks.

    Results, in the order of the `outs`: `dq`, `dk` [B, L, H, Dk], `dv`
    [B, L, H, Dv], `dg`, `dbeta` [B, L, H], and `dinit` [B, H, Dk, Dv] when
    `init` is present.

    With a_t = exp(g_t), kS_t = S_{t-1}^T k_t and dS_t the cotangent of
    S_t (from dS_{L-1} = d_final_state), per token from the last:

    ```
    dS_t     += scale q_t do_t^T
    dq_t      = scale S_t do_t
    u_t       = dS_t^T k_t
    dv_t      = beta_t u_t
    dk_t      = beta_t dS_t (v_t - a_t kS_t) - beta_t a_t S_{t-1} u_t
    dbeta_t   = u_t . (v_t - a_t kS_t)
    dg_t      = a_t (<dS_t, S_{t-1}> - beta_t u_t . kS_t)
    dS_{t-1}  = a_t (I - beta_t k_t k_t^T)^T dS_t = a_t (dS_t - beta_t k_t u_t^T)
    dinit     = dS_{-1}
    ```

    The lowering runs a reverse scan over the chunks of `chunk_size`
    tokens carrying dS: a full chunk goes through the forward's WY form
    (its factors recomputed from its boundary state, the recurrence
    above summed over the chunk as chunk-sized contractions and a back
    substitution); the tail tokens run the recurrence token by token. No
    per-token state of the whole sequence is formed.

    Parallel dimensions for tiling: B, H (dq, dk, dg and dbeta sum over the
    Dv columns, which therefore stay whole). A head tile must divide H (the
    lowering needs a static number of heads in every tile).

    ```mlir
    %dq, %dk, %dv, %dg, %dbeta = mixer.gated_delta_rule_backward
        chunk_size(64) scale(1.250000e-01)
        ins(%q, %k, %v, %g, %beta : tensor<2x4096x8x64xf32>, tensor<2x4096x8x64xf32>,
                                    tensor<2x4096x8x128xf32>, tensor<2x4096x8xf32>,
                                    tensor<2x4096x8xf32>)
        d_o(%do : tensor<2x4096x8x128xf32>)
        outs(%0, %1, %2, %3, %4 : tensor<2x4096x8x64xf32>, tensor<2x4096x8x64xf32>,
                                  tensor<2x4096x8x128xf32>, tensor<2x4096x8xf32>,
                                  tensor<2x4096x8xf32>)
        -> tensor<2x4096x8x64xf32>, tensor<2x4096x8x64xf32>,
           tensor<2x4096x8x128xf32>, tensor<2x4096x8xf32>, tensor<2x4096x8xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$q, AnyRankedTensor:$k,
                       AnyRankedTensor:$v, AnyRankedTensor:$g,
                       AnyRankedTensor:$beta,
                       Optional<AnyRankedTensor>:$init,
                       Optional<AnyRankedTensor>:$d_o,
                       Optional<AnyRankedTensor>:$d_final_state,
                       Optional<AnyRankedTensor>:$chunk_states,
                       Variadic<AnyRankedTensor>:$outs,
                       I64Attr:$chunk_size,
                       DefaultValuedAttr<F32Attr, "1.0f">:$scale);
  let results = (outs Variadic<AnyRankedTensor>:$grads);
  // Tiles: one (batch, head) per tile.
  let parallelTilePolicy = "return {1, 1};";

  let assemblyFormat = [{
    `chunk_size` `(` $chunk_size `)`
    (`scale` `(` $scale^ `)`)?
    `ins` `(` $q `,` $k `,` $v `,` $g `,` $beta `:` type($q) `,` type($k) `,` type($v) `,` type($g) `,` type($beta) `)`
    (`init` `(` $init^ `:` type($init) `)`)?
    (`d_o` `(` $d_o^ `:` type($d_o) `)`)?
    (`d_final_state` `(` $d_final_state^ `:` type($d_final_state) `)`)?
    (`chunk_states` `(` $chunk_states^ `:` type($chunk_states) `)`)?
    `outs` `(` $outs `:` type($outs) `)` attr-dict `->` type(results)
  }];
  let builders = [
    /// Absent optional operands are null values; `outs` holds one
    /// destination per gradient, in result order.
    OpBuilder<(ins "::mlir::Value":$q, "::mlir::Value":$k,
                   "::mlir::Value":$v, "::mlir::Value":$g,
                   "::mlir::Value":$beta, "::mlir::Value":$init,
                   "::mlir::Value":$dO, "::mlir::Value":$dFinalState,
                   "::mlir::Value":$chunkStates, "::mlir::ValueRange":$outs,
                   "int64_t":$chunkSize, "float":$scale)>
  ];
  let extraStructuredClassDeclaration = [{
    /// The number of gradients: five, plus dinit with an init.
    unsigned getNumGradients() { return getInit() ? 6 : 5; }
  }];
}

#endif // MIXER_DIALECT_MIXER_IR_MIXERSCANBACKWARDOPS_TD
