//===- MixerScanOps.td - chunked linear-recurrence scans ---*- tablegen -*-===//
//
// Scans with a matrix state per head. Each takes an optional initial state
// and returns the final state, so a length-1 call with a state is one decode
// step.
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_DIALECT_MIXER_IR_MIXERSCANOPS_TD
#define MIXER_DIALECT_MIXER_IR_MIXERSCANOPS_TD

def Mixer_SsdOp : Mixer_StructuredOp<"ssd"> {
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
    the shapes of the two `outs` operands. `chunk_size` is the block length
    of the chunked algorithm the lowering uses (the four steps of Mamba-2's
    SSD); it does not change the result. L need not be a multiple of it.

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
  let results = (outs AnyRankedTensor:$y, AnyRankedTensor:$final_state);
  let assemblyFormat = [{
    `chunk_size` `(` $chunk_size `)`
    `ins` `(` $x `,` $log_a `,` $b `,` $c `:` type($x) `,` type($log_a) `,` type($b) `,` type($c) `)`
    (`init` `(` $init^ `:` type($init) `)`)?
    `outs` `(` $outs `:` type($outs) `)` attr-dict `->` type(results)
  }];
  let builders = [
    OpBuilder<(ins "::mlir::Value":$x, "::mlir::Value":$logA,
                   "::mlir::Value":$b, "::mlir::Value":$c,
                   "::mlir::Value":$init, "::mlir::Value":$yInit,
                   "::mlir::Value":$stateInit, "int64_t":$chunkSize)>
  ];
}

#endif // MIXER_DIALECT_MIXER_IR_MIXERSCANOPS_TD
