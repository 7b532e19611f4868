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
// ssd and linear_attention: lowered through forward scans
//===----------------------------------------------------------------------===//

def Mixer_SsdBackwardOp
    : Mixer_StructuredOp<"ssd_backward", [], ["checkTile"]> {
  let summary = "the vector-Jacobian product of mixer.ssd";
  let description = [{
    The gradients of `mixer.ssd` with respect to its array inputs. Operands:
    the forward inputs `x` [B, L, H, P], `log_a` [B, L, H], `b` and `c`
    [B, L, G, N] and the optional `init` [B, H, P, N]; the forward's final
    state `final_state` [B, H, P, N] (its residual); the optional output
    cotangents `dy` [B, L, H, P] and `d_final_state` [B, H, P, N] (absent:
    zero). Results, in the shapes of the `outs` operands: `dx`, `dlog_a`,
    `db`, `dc` and, only when `init` is present, `dinit`.

    Per head h of group g, with a_t = exp(log_a_t), the state cotangent
    D_t (P x N) runs backwards in time and gives every gradient:

    ```
    D_{L-1} = d_final_state + dy_{L-1} c_{L-1}^T
    D_t     = a_{t+1} D_{t+1} + dy_t c_t^T
    dx_t    = D_t b_t
    db_t    = sum_{h in g} D_t^T x_t
    dc_t    = sum_{h in g} S_t^T dy_t          (S_t the forward state)
    dinit   = a_0 D_0
    dlog_a_k = sum_{t>=k} (<dc^h_t, c_t> - <db^h_t, b_t>) + <d_final_state, final_state>
    ```

    where dc^h and db^h are one head's terms of dc and db. The op has no
    lowering of its own: mixer-decompose-composites rewrites it into forward
    `mixer.ssd` ops (a reverse-time scan of D for dx and dinit, scans of D^T
    and S^T for db and dc, cumulative sums for dlog_a; docs/Backward.md) and
    elementwise linalg ops, so it runs the forward's chunked algorithm and
    never forms a per-token state. `chunk_size` is that of the scans it
    becomes. The lowering recomputes what it needs from the inputs and does
    not read `final_state` at present.

    Parallel dimensions for tiling: B, H. A head tile must cover whole groups
    (db and dc sum over the heads of a group).

    ```mlir
    %dx, %dla, %db, %dc = mixer.ssd_backward chunk_size(64)
        ins(%x, %log_a, %b, %c : tensor<2x1024x8x64xf32>, tensor<2x1024x8xf32>,
                                 tensor<2x1024x1x128xf32>, tensor<2x1024x1x128xf32>)
        final_state(%s : tensor<2x8x64x128xf32>)
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
                       AnyRankedTensor:$final_state,
                       Optional<AnyRankedTensor>:$dy,
                       Optional<AnyRankedTensor>:$d_final_state,
                       Variadic<AnyRankedTensor>:$outs,
                       I64Attr:$chunk_size);
  let results = (outs Variadic<AnyRankedTensor>:$grads);
  let assemblyFormat = [{
    `chunk_size` `(` $chunk_size `)`
    `ins` `(` $x `,` $log_a `,` $b `,` $c `:` type($x) `,` type($log_a) `,` type($b) `,` type($c) `)`
    (`init` `(` $init^ `:` type($init) `)`)?
    `final_state` `(` $final_state `:` type($final_state) `)`
    (`dy` `(` $dy^ `:` type($dy) `)`)?
    (`d_final_state` `(` $d_final_state^ `:` type($d_final_state) `)`)?
    `outs` `(` $outs `:` type($outs) `)` attr-dict `->` type($grads)
  }];
  let builders = [
    /// Absent optional operands are null values; `outs` holds dx, dlog_a,
    /// db, dc and, with `init`, dinit.
    OpBuilder<(ins "::mlir::Value":$x, "::mlir::Value":$logA,
                   "::mlir::Value":$b, "::mlir::Value":$c,
                   "::mlir::Value":$init, "::mlir::Value":$finalState,
                   "::mlir::Value":$dy, "::mlir::Value":$dFinalState,
                   "::mlir::ValueRange":$outs, "int64_t":$chunkSize)>
  ];
}

def Mixer_LinearAttentionBackwardOp
    : Mixer_StructuredOp<"linear_attention_backward"> {
  let summary = "the vector-Jacobian product of mixer.linear_attention";
  let description = [{
    The gradients of `mixer.linear_attention` with respect to its array
    inputs. Operands: the forward inputs `q` and `k` [B, L, H, Dk], `v`
    [B, L, H, Dv], the optional `log_decay` [B, L, H] and `init`
    [B, H, Dk, Dv]; the forward's `final_state` [B, H, Dk, Dv]; the optional
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
    a `mixer.ssd_backward` (then forward `mixer.ssd` scans) and elementwise
    linalg ops.

    Parallel dimensions for tiling: B, H.

    ```mlir
    %dq, %dk, %dv, %dld = mixer.linear_attention_backward chunk_size(64) scale(1.250000e-01)
        ins(%q, %k, %v : tensor<2x4096x8x64xf32>, tensor<2x4096x8x64xf32>, tensor<2x4096x8x64xf32>)
        log_decay(%ld : tensor<2x4096x8xf32>)
        final_state(%s : tensor<2x8x64x64xf32>)
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
                       AnyRankedTensor:$final_state,
                       Optional<AnyRankedTensor>:$dout,
                       Optional<AnyRankedTensor>:$d_final_state,
                       Variadic<AnyRankedTensor>:$outs,
                       I64Attr:$chunk_size,
                       DefaultValuedAttr<I64Attr, "0">:$window,
                       DefaultValuedAttr<F32Attr, "1.0f">:$scale);
  let results = (outs Variadic<AnyRankedTensor>:$grads);
  let assemblyFormat = [{
    `chunk_size` `(` $chunk_size `)`
    (`window` `(` $window^ `)`)?
    (`scale` `(` $scale^ `)`)?
    `ins` `(` $q `,` $k `,` $v `:` type($q) `,` type($k) `,` type($v) `)`
    (`log_decay` `(` $log_decay^ `:` type($log_decay) `)`)?
    (`init` `(` $init^ `:` type($init) `)`)?
    `final_state` `(` $final_state `:` type($final_state) `)`
    (`dout` `(` $dout^ `:` type($dout) `)`)?
    (`d_final_state` `(` $d_final_state^ `:` type($d_final_state) `)`)?
    `outs` `(` $outs `:` type($outs) `)` attr-dict `->` type($grads)
  }];
  let builders = [
    /// Absent optional operands are null values; `outs` holds dq, dk, dv
    /// and, when present, dlog_decay and dinit.
    OpBuilder<(ins "::mlir::Value":$q, "::mlir::Value":$k,
                   "::mlir::Value":$v, "::mlir::Value":$logDecay,
                   "::mlir::Value":$init, "::mlir::Value":$finalState,
                   "::mlir::Value":$dOut, "::mlir::Value":$dFinalState,
                   "::mlir::ValueRange":$outs, "int64_t":$chunkSize,
                   "int64_t":$window, "float":$scale)>
  ];
}

#endif // MIXER_DIALECT_MIXER_IR_MIXERSCANBACKWARDOPS_TD
