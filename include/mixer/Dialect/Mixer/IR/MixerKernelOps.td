//===- MixerKernelOps.td - kernel reductions ---------------*- tablegen -*-===//
//
// Sums over a second point set y_1..y_M for every point x_i of a first set,
// of a kernel k(x_i, y_j) (kernel_mv) or of exp(-c(x_i, y_j) / eps)
// (kernel_lse, in the log domain), or the cost of a transport plan
// (transport_cost), computed without forming the N x M matrix.
// The kernel or cost is a #mixer.kernel<...> attribute; its bandwidth or eps
// is a 0-d tensor operand so that it can change at run time. Sinkhorn is a
// composite of kernel_lse.
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_DIALECT_MIXER_IR_MIXERKERNELOPS_TD
#define MIXER_DIALECT_MIXER_IR_MIXERKERNELOPS_TD

/// Mixer_StructuredOp without AttrSizedOperandSegments, for an op whose only
/// variadic operand group is `outs` (ODS rejects segment sizes there).
class Mixer_UnsegmentedStructuredOp<string mnemonic, list<Trait> traits = []>
    : Mixer_Op<mnemonic, !listconcat(traits, [
        Pure, DestinationStyleOpInterface, Mixer_Structured<>,
        DeclareOpInterfaceMethods<Mixer_ParallelTilingOpInterface>])>,
      Mixer_ParallelTiled {
  code extraStructuredClassDeclaration = "";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::MutableOperandRange getDpsInitsMutable() { return getOutsMutable(); }
  }] # extraStructuredClassDeclaration;
}

def Mixer_KernelMvOp : Mixer_UnsegmentedStructuredOp<"kernel_mv"> {
  let summary = "kernel matrix times a matrix, without forming the kernel matrix";
  let description = [{
    For points x_i (rows of `x` [Bt, N, D]) and y_j (rows of `y` [Bt, M, D])
    and values v_j (rows of `v` [Bt, M, C]), per batch entry:

    ```
    out_i = sum_{j < M} k(x_i, y_j) v_j        (out is [Bt, N, C])
    ```

    with the kernel k of the `kernel` attribute, r = ||x_i - y_j||_2 and
    h = `bandwidth` (a 0-d f32 tensor, > 0 at run time):

    ```
    gaussian:             k = exp(-r^2 / (2 h^2))
    laplacian:            k = exp(-r / h)
    matern32:             k = (1 + sqrt(3) r / h) exp(-sqrt(3) r / h)
    inverse_multiquadric: k = 1 / sqrt(1 + r^2 / h^2)
    linear:               k = <x_i, y_j>            (h is ignored)
    ```

    `sqeuclidean` is a cost, not a kernel, and is rejected. The batch
    dimension Bt is optional: `x`, `y`, `v` and `out` are either all rank 3
    [Bt, ...] or all rank 2 [N, D], [M, D], [M, C], [N, C]. A kernel density
    estimate is kernel_mv with C = 1, v = the weights, then a normalization.

    The `outs` operand gives the shape of `out`; its contents are not read
    (the sum is not accumulated into it).

    Parallel dimensions for tiling: (Bt,) N, C. The sum over M is not tiled:
    it is the column-block loop of the lowering.

    ```mlir
    %out = mixer.kernel_mv kernel(gaussian)
        ins(%x, %y, %v, %h : tensor<4x1024x3xf32>, tensor<4x2048x3xf32>,
                             tensor<4x2048x16xf32>, tensor<f32>)
        outs(%init : tensor<4x1024x16xf32>) -> tensor<4x1024x16xf32>
    ```

    In generic form the kernel is the attribute `kernel = #mixer.kernel<gaussian>`.
  }];
  let arguments = (ins Mixer_KernelAttr:$kernel,
                       AnyRankedTensor:$x, AnyRankedTensor:$y,
                       AnyRankedTensor:$v, AnyRankedTensor:$bandwidth,
                       Variadic<AnyRankedTensor>:$outs);
  let results = (outs AnyRankedTensor:$out);
  // Tiles: one (batch entry, row block) per tile, all C columns of v in it (the
  // column loop over y is the lowering's).
  let parallelTilePolicy = [{
    return rowBlockTile(isBatched(), target.parallelRowBlock, /*trailing=*/1);
  }];

  let assemblyFormat = [{
    `kernel` `(` custom<KernelKind>($kernel) `)`
    `ins` `(` $x `,` $y `,` $v `,` $bandwidth `:` type($x) `,` type($y) `,` type($v) `,` type($bandwidth) `)`
    `outs` `(` $outs `:` type($outs) `)` attr-dict `->` type(results)
  }];
  let builders = [
    OpBuilder<(ins "::mlir::mixer::KernelKind":$kernel, "::mlir::Value":$x,
                   "::mlir::Value":$y, "::mlir::Value":$v,
                   "::mlir::Value":$bandwidth, "::mlir::Value":$outInit)>
  ];
  let extraStructuredClassDeclaration = [{
    /// Whether the operands carry the optional leading batch dimension Bt.
    bool isBatched() { return getX().getType().getRank() == 3; }
  }];
}

def Mixer_KernelLseOp : Mixer_StructuredOp<"kernel_lse"> {
  let summary = "log-sum-exp of negative costs over a point set (log-domain kernel sum)";
  let description = [{
    For points x_i (rows of `x` [Bt, N, D]), y_j (rows of `y` [Bt, M, D]),
    an optional log-weight `g` [Bt, M] (0 when absent) and eps = `eps` (a 0-d
    f32 tensor, > 0 at run time), per batch entry:

    ```
    out_i = log sum_{j < M} exp(-c(x_i, y_j) / eps + g_j)      (out is [Bt, N])
    ```

    with the cost c of the `kernel` attribute and r = ||x_i - y_j||_2:

    ```
    sqeuclidean: c = r^2
    gaussian:    c = r^2 / 2      (exp(-c / eps) is the gaussian kernel, h^2 = eps)
    laplacian:   c = r            (exp(-c / eps) is the laplacian kernel, h = eps)
    ```

    Other kinds are rejected. The sum is accumulated online (running max and
    running sum), so neither the N x M cost nor the kernel matrix is formed
    and large -c/eps does not overflow. M = 0 gives -inf. The batch dimension
    Bt is optional: `x`, `y`, `g` and `out` are either all batched or all
    unbatched ([N, D], [M, D], [M], [N]).

    The `outs` operand gives the shape of `out`; its contents are not read.

    Parallel dimensions for tiling: (Bt,) N. The reduction over M is not
    tiled through TilingInterface.

    ```mlir
    %lse = mixer.kernel_lse kernel(sqeuclidean)
        ins(%x, %y, %eps : tensor<1024x3xf32>, tensor<2048x3xf32>, tensor<f32>)
        g(%g : tensor<2048xf32>)
        outs(%init : tensor<1024xf32>) -> tensor<1024xf32>
    ```

    In generic form the kind is the attribute `kernel = #mixer.kernel<sqeuclidean>`.
  }];
  let arguments = (ins Mixer_KernelAttr:$kernel,
                       AnyRankedTensor:$x, AnyRankedTensor:$y,
                       AnyRankedTensor:$eps, Optional<AnyRankedTensor>:$g,
                       Variadic<AnyRankedTensor>:$outs);
  let results = (outs AnyRankedTensor:$out);
  // Tiles: one (batch entry, row block) per tile.
  let parallelTilePolicy = Mixer_RowBlockTiles;

  let assemblyFormat = [{
    `kernel` `(` custom<KernelKind>($kernel) `)`
    `ins` `(` $x `,` $y `,` $eps `:` type($x) `,` type($y) `,` type($eps) `)`
    (`g` `(` $g^ `:` type($g) `)`)?
    `outs` `(` $outs `:` type($outs) `)` attr-dict `->` type(results)
  }];
  let builders = [
    /// `g` may be null (no log-weights).
    OpBuilder<(ins "::mlir::mixer::KernelKind":$kernel, "::mlir::Value":$x,
                   "::mlir::Value":$y, "::mlir::Value":$eps,
                   "::mlir::Value":$g, "::mlir::Value":$outInit)>
  ];
  let extraStructuredClassDeclaration = [{
    /// Whether the operands carry the optional leading batch dimension Bt.
    bool isBatched() { return getX().getType().getRank() == 3; }
  }];
}

def Mixer_TransportCostOp : Mixer_UnsegmentedStructuredOp<"transport_cost"> {
  let summary = "per-row cost of an entropic transport plan, without forming the plan";
  let description = [{
    For points x_i (rows of `x` [Bt, N, D]) and y_j (rows of `y` [Bt, M, D]),
    the log-scalings `log_u` [Bt, N] and `log_v` [Bt, M] of a transport plan
    and eps = `eps` (a 0-d f32 tensor, > 0 at run time), per batch entry:

    ```
    out_i = sum_{j < M} P_ij C_ij,    P_ij = exp(log_u_i + log_v_j - C_ij / eps)
    ```

    (out is [Bt, N]) with C_ij = c(x_i, y_j) the cost of the `cost`
    attribute, as in mixer.kernel_lse (r = ||x_i - y_j||_2):

    ```
    sqeuclidean: c = r^2
    gaussian:    c = r^2 / 2
    laplacian:   c = r
    ```

    P = diag(u) K diag(v) with K_ij = exp(-C_ij / eps) is the plan of
    Sinkhorn's scalings u, v; with the potentials f, g of mixer.sinkhorn,
    log_u = f / eps + log_a and log_v = g / eps + log_b, and sum_i out_i is
    the transport cost sum_ij P_ij C_ij. Neither the N x M cost nor the plan
    is formed. Other kinds are rejected. The batch dimension Bt is optional:
    `x`, `y`, `log_u`, `log_v` and `out` are either all batched or all
    unbatched ([N, D], [M, D], [N], [M], [N]).

    The `outs` operand gives the shape of `out`; its contents are not read.

    Parallel dimensions for tiling: (Bt,) N. The sum over M is not tiled:
    it is the column-block loop of the lowering.

    ```mlir
    %rows = mixer.transport_cost cost(sqeuclidean)
        ins(%x, %y, %log_u, %log_v, %eps : tensor<1024x3xf32>, tensor<2048x3xf32>,
                                           tensor<1024xf32>, tensor<2048xf32>, tensor<f32>)
        outs(%init : tensor<1024xf32>) -> tensor<1024xf32>
    ```

    In generic form the cost is the attribute `cost = #mixer.kernel<sqeuclidean>`.
  }];
  let arguments = (ins Mixer_KernelAttr:$cost,
                       AnyRankedTensor:$x, AnyRankedTensor:$y,
                       AnyRankedTensor:$log_u, AnyRankedTensor:$log_v,
                       AnyRankedTensor:$eps,
                       Variadic<AnyRankedTensor>:$outs);
  let results = (outs AnyRankedTensor:$out);
  // Tiles: one (batch entry, row block) per tile.
  let parallelTilePolicy = Mixer_RowBlockTiles;

  let assemblyFormat = [{
    `cost` `(` custom<KernelKind>($cost) `)`
    `ins` `(` $x `,` $y `,` $log_u `,` $log_v `,` $eps `:`
              type($x) `,` type($y) `,` type($log_u) `,` type($log_v) `,` type($eps) `)`
    `outs` `(` $outs `:` type($outs) `)` attr-dict `->` type(results)
  }];
  let builders = [
    OpBuilder<(ins "::mlir::mixer::KernelKind":$cost, "::mlir::Value":$x,
                   "::mlir::Value":$y, "::mlir::Value":$logU,
                   "::mlir::Value":$logV, "::mlir::Value":$eps,
                   "::mlir::Value":$outInit)>
  ];
  let extraStructuredClassDeclaration = [{
    /// Whether the operands carry the optional leading batch dimension Bt.
    bool isBatched() { return getX().getType().getRank() == 3; }
  }];
}

def Mixer_SinkhornOp : Mixer_Op<"sinkhorn", [
    Pure, DestinationStyleOpInterface]> {
  let summary = "log-domain Sinkhorn iterations for entropic optimal transport";
  let description = [{
    Entropic optimal transport between the points x_i (rows of `x` [N, D])
    with log-weights `log_a` [N] and the points y_j (rows of `y` [M, D])
    with log-weights `log_b` [M], at regularization eps = `eps` (a 0-d f32
    tensor, > 0 at run time), with the cost C_ij = c(x_i, y_j) of the `cost`
    attribute (sqeuclidean r^2, gaussian r^2 / 2 or laplacian r, as in
    mixer.kernel_lse; other kinds are rejected). Starting from g = 0, each of
    the `iterations` (> 0) steps updates f, then g:

    ```
    f_i = -eps * log sum_j exp((g_j - C_ij) / eps + log_b_j)
    g_j = -eps * log sum_i exp((f_i - C_ij) / eps + log_a_i)
    ```

    Results: the dual potentials `f` [N] and `g` [M] after the last step, and
    the transport cost (a 0-d tensor)

    ```
    transport_cost = sum_ij P_ij C_ij,   P_ij = exp((f_i + g_j - C_ij) / eps + log_a_i + log_b_j)
    ```

    This op is a composite: it has no TilingInterface and no lowering of its
    own. It decomposes into an scf.for over `iterations` steps of two
    mixer.kernel_lse ops with the same cost (all three costs are symmetric),
    plus elementwise ops:

    ```
    f = -eps * kernel_lse(x, y, g / eps + log_b)
    g = -eps * kernel_lse(y, x, f / eps + log_a)
    ```

    then the transport cost as the sum of the rows of
    mixer.transport_cost(x, y, f / eps + log_a, g / eps + log_b); those
    kernel_lse and transport_cost ops are what gets tiled. It is in destination-passing style like every mixer op: the three
    `outs` operands (f, g, transport_cost) give the result shapes and may
    serve as the buffers of the decomposition; their contents are not read
    (g starts at 0 whatever the `g` operand of `outs` holds).

    ```mlir
    %f, %g, %cost = mixer.sinkhorn cost(sqeuclidean) iterations(100)
        ins(%x, %y, %log_a, %log_b, %eps : tensor<1024x3xf32>, tensor<2048x3xf32>,
                                           tensor<1024xf32>, tensor<2048xf32>, tensor<f32>)
        outs(%f0, %g0, %c0 : tensor<1024xf32>, tensor<2048xf32>, tensor<f32>)
        -> tensor<1024xf32>, tensor<2048xf32>, tensor<f32>
    ```

    In generic form the cost is the attribute `cost = #mixer.kernel<sqeuclidean>`.

    Gradients (DifferentiableOpInterface, mixer.sinkhorn_backward): the
    cotangent of `transport_cost` is applied to the entropic OT value
    <a, f> + <b, g> (a = exp(log_a), b = exp(log_b)), which is
    transport_cost plus eps KL(P | a b^T), differentiated by the envelope
    theorem at the returned potentials; not to sum_ij P_ij C_ij itself.
    The potentials f and g have no gradient: their cotangents must be zero
    (checked when the code runs).
  }];
  let arguments = (ins Mixer_KernelAttr:$cost, I64Attr:$iterations,
                       AnyRankedTensor:$x, AnyRankedTensor:$y,
                       AnyRankedTensor:$log_a, AnyRankedTensor:$log_b,
                       AnyRankedTensor:$eps,
                       Variadic<AnyRankedTensor>:$outs);
  let results = (outs AnyRankedTensor:$f, AnyRankedTensor:$g,
                      AnyRankedTensor:$transport_cost);
  let assemblyFormat = [{
    `cost` `(` custom<KernelKind>($cost) `)` `iterations` `(` $iterations `)`
    `ins` `(` $x `,` $y `,` $log_a `,` $log_b `,` $eps `:`
              type($x) `,` type($y) `,` type($log_a) `,` type($log_b) `,` type($eps) `)`
    `outs` `(` $outs `:` type($outs) `)` attr-dict `->` type(results)
  }];
  let builders = [
    OpBuilder<(ins "::mlir::mixer::KernelKind":$cost, "int64_t":$iterations,
                   "::mlir::Value":$x, "::mlir::Value":$y,
                   "::mlir::Value":$logA, "::mlir::Value":$logB,
                   "::mlir::Value":$eps, "::mlir::Value":$fInit,
                   "::mlir::Value":$gInit, "::mlir::Value":$costInit)>
  ];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::MutableOperandRange getDpsInitsMutable() { return getOutsMutable(); }
  }];
}

#endif // MIXER_DIALECT_MIXER_IR_MIXERKERNELOPS_TD
