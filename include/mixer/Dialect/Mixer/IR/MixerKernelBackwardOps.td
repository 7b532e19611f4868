//===- MixerKernelBackwardOps.td - backward ops -*- tablegen -*-===//
//
// One backward op per differentiable kernel op: the op's inputs, the
// cotangents of its results and the residuals its forward saved in; the
// cotangent of every array input out.
//
// Each gradient of a kernel sum reduces over the other point set (dx over
// the y_j, dy and dv over the x_i), so the backward ops share no parallel
// dimension across their results: they are composites that
// mixer-decompose-composites splits into one row-blocked sum per gradient,
// each tiled over its own rows. Those sums are forward ops where the math
// allows (dv of kernel_mv is a kernel_mv with x and y exchanged) and the
// point-gradient ops below otherwise, which recompute k(x_i, y_j) block by
// block as the forward does: nothing of size N x M is formed.
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_DIALECT_MIXER_IR_MIXERKERNELBACKWARDOPS_TD
#define MIXER_DIALECT_MIXER_IR_MIXERKERNELBACKWARDOPS_TD

/// A composite backward op: destination-passing style, no tiling and no
/// lowering of its own (mixer-decompose-composites expands it).
class Mixer_CompositeBackwardOp<string mnemonic, list<Trait> traits = []>
    : Mixer_Op<mnemonic, !listconcat(traits, [
        Pure, DestinationStyleOpInterface])> {
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::MutableOperandRange getDpsInitsMutable() { return getOutsMutable(); }
    /// Whether the operands carry the optional leading batch dimension Bt.
    bool isBatched() {
      return ::llvm::cast<::mlir::RankedTensorType>(getX().getType())
                 .getRank() == 3;
    }
  }];
}

def Mixer_KernelMvBackwardOp : Mixer_CompositeBackwardOp<"kernel_mv_backward"> {
  let summary = "gradients of mixer.kernel_mv";
  let description = [{
    The vector-Jacobian product of `mixer.kernel_mv`
    (out_i = sum_j k(x_i, y_j) v_j): from the operands `x` [Bt, N, D],
    `y` [Bt, M, D], `v` [Bt, M, C], `bandwidth` (0-d) of the forward op and
    the cotangent `dout` [Bt, N, C] of its result, with
    w_ij = <dout_i, v_j>:

    ```
    dx_i = sum_j w_ij grad_x k(x_i, y_j)
    dy_j = sum_i w_ij grad_y k(x_i, y_j)
    dv_j = sum_i k(x_i, y_j) dout_i
    dbandwidth = sum_ij w_ij dk(x_i, y_j)/dh
    ```

    For the distance kernels grad_x k = 2 k'(r^2) (x_i - y_j) with
    k' = dk/d(r^2) (gaussian a k, laplacian a k / (2 r) and 0 at r = 0,
    matern32 -(a^2 / 2) exp(-a r), inverse_multiquadric -(a / 2) k^3, a the
    coefficient of mixer.kernel_mv's lowering), and grad_y k = -grad_x k.
    These kernels depend on x / h and y / h only, so
    dbandwidth = -(1/h) (sum_i <x_i, dx_i> + sum_j <y_j, dy_j>) (taken
    about the mean point of y, which the gradients' translation invariance
    allows). The linear kernel <x_i, y_j> has grad_x k = y_j, grad_y k = x_i
    and no bandwidth: its dbandwidth is 0. The batch dimension Bt is
    optional, as in mixer.kernel_mv; the bandwidth is shared by every batch
    entry, so dbandwidth sums over them.

    A composite: mixer-decompose-composites rewrites it into

    ```
    dx = kernel_mv_point_grad(x, y, v, dout)      (rows i, columns j)
    dy = kernel_mv_point_grad(y, x, dout, v)      (rows j, columns i)
    dv = kernel_mv(y, x, dout)                    (the forward op)
    dbandwidth from dx and dy as above
    ```

    each tiled over its own rows and recomputing the kernel block by block.
    The four `outs` (dx, dy, dv, dbandwidth) give the result shapes; their
    contents are not read.

    ```mlir
    %dx, %dy, %dv, %dh = mixer.kernel_mv_backward kernel(gaussian)
        ins(%x, %y, %v, %h, %dout : tensor<1024x3xf32>, tensor<2048x3xf32>,
              tensor<2048x16xf32>, tensor<f32>, tensor<1024x16xf32>)
        outs(%dx0, %dy0, %dv0, %dh0 : tensor<1024x3xf32>, tensor<2048x3xf32>,
              tensor<2048x16xf32>, tensor<f32>)
        -> tensor<1024x3xf32>, tensor<2048x3xf32>, tensor<2048x16xf32>, tensor<f32>
    ```
  }];
  let arguments = (ins Mixer_KernelAttr:$kernel,
                       AnyRankedTensor:$x, AnyRankedTensor:$y,
                       AnyRankedTensor:$v, AnyRankedTensor:$bandwidth,
                       AnyRankedTensor:$dout,
                       Variadic<AnyRankedTensor>:$outs);
  let results = (outs AnyRankedTensor:$dx, AnyRankedTensor:$dy,
                      AnyRankedTensor:$dv, AnyRankedTensor:$dbandwidth);
  let assemblyFormat = [{
    `kernel` `(` custom<KernelKind>($kernel) `)`
    `ins` `(` $x `,` $y `,` $v `,` $bandwidth `,` $dout `:` type($x) `,` type($y) `,` type($v) `,` type($bandwidth) `,` type($dout) `)`
    `outs` `(` $outs `:` type($outs) `)` attr-dict `->` type(results)
  }];
  let builders = [
    /// `outInits` holds the four outs: dx, dy, dv, dbandwidth.
    OpBuilder<(ins "::mlir::mixer::KernelKind":$kernel, "::mlir::Value":$x,
                   "::mlir::Value":$y, "::mlir::Value":$v,
                   "::mlir::Value":$bandwidth, "::mlir::Value":$dout,
                   "::mlir::ValueRange":$outInits)>
  ];
}

def Mixer_KernelMvPointGradOp
    : Mixer_UnsegmentedStructuredOp<"kernel_mv_point_grad"> {
  let summary = "gradient of a kernel sum with respect to its first points";
  let description = [{
    The part of mixer.kernel_mv's gradient that is not a kernel_mv itself:
    for points x_i (`x` [Bt, N, D]) and y_j (`y` [Bt, M, D]), values v_j
    (`v` [Bt, M, C]), cotangents dout_i (`dout` [Bt, N, C]) and the kernel
    of the `kernel` attribute with `bandwidth` h (0-d):

    ```
    dx_i = sum_j <dout_i, v_j> grad_x k(x_i, y_j)                (out is [Bt, N, D])
         = 2 (s_i x_i - t_i),  s_i = sum_j w_ij,  t_i = sum_j w_ij y_j,
           w_ij = <dout_i, v_j> dk/d(r^2)(r_ij^2)
    ```

    for the distance kernels (k' as in mixer.kernel_mv_backward; the
    laplacian's is 0 at r = 0), and dx_i = sum_j <dout_i, v_j> y_j for the
    linear kernel. With x and y (and v and dout) exchanged it is the
    gradient with respect to y. The batch dimension Bt is optional, as in
    mixer.kernel_mv.

    Lowered like mixer.kernel_mv, per block of R rows and Cb columns: the
    squared distances and k' recomputed for the block, <dout_i, v_j> as one
    [R, C] x [C, Cb] contraction, t += w y_blk as another; never an N x M
    matrix.

    Parallel dimensions for tiling: (Bt,) N. M, C and D are summed inside.

    ```mlir
    %dx = mixer.kernel_mv_point_grad kernel(gaussian)
        ins(%x, %y, %v, %dout, %h : tensor<1024x3xf32>, tensor<2048x3xf32>,
              tensor<2048x16xf32>, tensor<1024x16xf32>, tensor<f32>)
        outs(%init : tensor<1024x3xf32>) -> tensor<1024x3xf32>
    ```
  }];
  let arguments = (ins Mixer_KernelAttr:$kernel,
                       AnyRankedTensor:$x, AnyRankedTensor:$y,
                       AnyRankedTensor:$v, AnyRankedTensor:$dout,
                       AnyRankedTensor:$bandwidth,
                       Variadic<AnyRankedTensor>:$outs);
  let results = (outs AnyRankedTensor:$dx);
  // Tiles: one (batch entry, row block) per tile, like the forward sums.
  let parallelTilePolicy = Mixer_RowBlockTiles;

  let assemblyFormat = [{
    `kernel` `(` custom<KernelKind>($kernel) `)`
    `ins` `(` $x `,` $y `,` $v `,` $dout `,` $bandwidth `:` type($x) `,` type($y) `,` type($v) `,` type($dout) `,` type($bandwidth) `)`
    `outs` `(` $outs `:` type($outs) `)` attr-dict `->` type(results)
  }];
  let builders = [
    OpBuilder<(ins "::mlir::mixer::KernelKind":$kernel, "::mlir::Value":$x,
                   "::mlir::Value":$y, "::mlir::Value":$v,
                   "::mlir::Value":$dout, "::mlir::Value":$bandwidth,
                   "::mlir::Value":$outInit)>
  ];
  let extraStructuredClassDeclaration = [{
    bool isBatched() { return getX().getType().getRank() == 3; }
  }];
}

def Mixer_KernelLseBackwardOp
    : Mixer_CompositeBackwardOp<"kernel_lse_backward", [AttrSizedOperandSegments]> {
  let summary = "gradients of mixer.kernel_lse";
  let description = [{
    The vector-Jacobian product of `mixer.kernel_lse`
    (out_i = log sum_j exp(s_ij), s_ij = -c(x_i, y_j) / eps + g_j): from
    the operands `x` [Bt, N, D], `y` [Bt, M, D], `eps` (0-d) and optional
    `g` [Bt, M] of the forward op, its result `out` [Bt, N] (the residual:
    the log-normalizer of every row) and the cotangent `dout` [Bt, N], with
    the row softmax P_ij = exp(s_ij - out_i) (<= 1):

    ```
    dx_i = -(dout_i / eps) sum_j P_ij grad_x c(x_i, y_j)
    dy_j = -(1 / eps) sum_i dout_i P_ij grad_y c(x_i, y_j)
    dg_j = sum_i dout_i P_ij
    ```

    with grad_x c = 2 (x_i - y_j) (sqeuclidean), x_i - y_j (gaussian) or
    (x_i - y_j) / r (laplacian, 0 at r = 0), and grad_y c = -grad_x c.
    `eps` gets no gradient (it is a hyperparameter here). dg is returned
    whether or not `g` is given (the gradient with respect to log-weights
    that are 0). The batch dimension Bt is optional, as in
    mixer.kernel_lse.

    A composite: mixer-decompose-composites rewrites it into two
    mixer.kernel_lse_point_grad ops, one over the rows i (dx, times dout)
    and one over the rows j with x and y exchanged (dy and dg), each tiled
    over its rows and recomputing the costs block by block.

    ```mlir
    %dx, %dy, %dg = mixer.kernel_lse_backward kernel(sqeuclidean)
        ins(%x, %y, %eps, %out, %dout : tensor<1024x3xf32>, tensor<2048x3xf32>,
              tensor<f32>, tensor<1024xf32>, tensor<1024xf32>)
        g(%g : tensor<2048xf32>)
        outs(%dx0, %dy0, %dg0 : tensor<1024x3xf32>, tensor<2048x3xf32>, tensor<2048xf32>)
        -> tensor<1024x3xf32>, tensor<2048x3xf32>, tensor<2048xf32>
    ```
  }];
  let arguments = (ins Mixer_KernelAttr:$kernel,
                       AnyRankedTensor:$x, AnyRankedTensor:$y,
                       AnyRankedTensor:$eps, AnyRankedTensor:$out,
                       AnyRankedTensor:$dout, Optional<AnyRankedTensor>:$g,
                       Variadic<AnyRankedTensor>:$outs);
  let results = (outs AnyRankedTensor:$dx, AnyRankedTensor:$dy,
                      AnyRankedTensor:$dg);
  let assemblyFormat = [{
    `kernel` `(` custom<KernelKind>($kernel) `)`
    `ins` `(` $x `,` $y `,` $eps `,` $out `,` $dout `:` type($x) `,` type($y) `,` type($eps) `,` type($out) `,` type($dout) `)`
    (`g` `(` $g^ `:` type($g) `)`)?
    `outs` `(` $outs `:` type($outs) `)` attr-dict `->` type(results)
  }];
  let builders = [
    /// `g` may be null; `outInits` holds dx, dy, dg.
    OpBuilder<(ins "::mlir::mixer::KernelKind":$kernel, "::mlir::Value":$x,
                   "::mlir::Value":$y, "::mlir::Value":$eps,
                   "::mlir::Value":$out, "::mlir::Value":$dout,
                   "::mlir::Value":$g, "::mlir::ValueRange":$outInits)>
  ];
}

def Mixer_KernelLsePointGradOp
    : Mixer_UnsegmentedStructuredOp<"kernel_lse_point_grad"> {
  let summary = "gradient of a log-domain kernel sum with respect to its first points";
  let description = [{
    The two sums of mixer.kernel_lse's gradient over one point set: for
    points x_p (`x` [Bt, N, D]) and y_q (`y` [Bt, M, D]), log-shifts
    `row_shift` a_p [Bt, N] and `col_shift` b_q [Bt, M], column weights
    `col_weight` w_q [Bt, M], eps = `eps` (0-d) and the cost c of the
    `kernel` attribute:

    ```
    P_pq   = exp(min(-c(x_p, y_q) / eps + a_p + b_q, 0))
    grad_p = -(1 / eps) sum_q w_q P_pq grad_x c(x_p, y_q)     (grad is [Bt, N, D])
    sums_p = sum_q w_q P_pq                                   (sums is [Bt, N])
    ```

    (grad_x c as in mixer.kernel_lse_backward). With a = -out, b = g and
    w = 1 it gives dx / dout of kernel_lse; with x and y exchanged, a = g,
    b = -out and w = dout, it gives dy and dg. The exponent is <= 0 in both
    uses (out is the log-sum of those terms); the clamp keeps rounding from
    overflowing it.

    Lowered like mixer.kernel_lse, per block of R rows and Cb columns, the
    costs recomputed per block; never an N x M matrix.

    Parallel dimensions for tiling: (Bt,) N.

    ```mlir
    %grad, %sums = mixer.kernel_lse_point_grad kernel(sqeuclidean)
        ins(%x, %y, %eps, %a, %b, %w : tensor<1024x3xf32>, tensor<2048x3xf32>,
              tensor<f32>, tensor<1024xf32>, tensor<2048xf32>, tensor<2048xf32>)
        outs(%g0, %s0 : tensor<1024x3xf32>, tensor<1024xf32>)
        -> tensor<1024x3xf32>, tensor<1024xf32>
    ```
  }];
  let arguments = (ins Mixer_KernelAttr:$kernel,
                       AnyRankedTensor:$x, AnyRankedTensor:$y,
                       AnyRankedTensor:$eps, AnyRankedTensor:$row_shift,
                       AnyRankedTensor:$col_shift, AnyRankedTensor:$col_weight,
                       Variadic<AnyRankedTensor>:$outs);
  let results = (outs AnyRankedTensor:$grad, AnyRankedTensor:$sums);
  // Tiles: one (batch entry, row block) per tile, like the forward sums.
  let parallelTilePolicy = Mixer_RowBlockTiles;

  let assemblyFormat = [{
    `kernel` `(` custom<KernelKind>($kernel) `)`
    `ins` `(` $x `,` $y `,` $eps `,` $row_shift `,` $col_shift `,` $col_weight `:` type($x) `,` type($y) `,` type($eps) `,` type($row_shift) `,` type($col_shift) `,` type($col_weight) `)`
    `outs` `(` $outs `:` type($outs) `)` attr-dict `->` type(results)
  }];
  let builders = [
    OpBuilder<(ins "::mlir::mixer::KernelKind":$kernel, "::mlir::Value":$x,
                   "::mlir::Value":$y, "::mlir::Value":$eps,
                   "::mlir::Value":$rowShift, "::mlir::Value":$colShift,
                   "::mlir::Value":$colWeight, "::mlir::Value":$gradInit,
                   "::mlir::Value":$sumsInit)>
  ];
  let extraStructuredClassDeclaration = [{
    bool isBatched() { return getX().getType().getRank() == 3; }
  }];
}

def Mixer_SinkhornBackwardOp
    : Mixer_DestinationOp<"sinkhorn_backward", [AttrSizedOperandSegments]> {
  let summary = "envelope-theorem gradients of mixer.sinkhorn's transport cost";
  let description = [{
    The vector-Jacobian product of `mixer.sinkhorn` with respect to `x`
    [N, D], `y` [M, D], `log_a` [N] and `log_b` [M], from the forward's
    operands, its potentials `f` [N] and `g` [M] (the residuals: the
    forward's results, g from the last update) and the cotangent `d_cost`
    (0-d) of its `transport_cost` result.

    What is differentiated: the entropic optimal-transport value at the
    converged potentials, with a = exp(log_a), b = exp(log_b),

    ```
    OT_eps(x, y, a, b) = <a, f> + <b, g>
                       = max over (f, g) of <a, f> + <b, g>
                           - eps sum_ij a_i b_j (exp((f_i + g_j - C_ij) / eps) - 1)
                         (probability weights: sum a = sum b = 1)
    ```

    which is min over plans P of sum_ij P_ij C_ij + eps KL(P | a b^T). By
    the envelope theorem its gradient needs no derivative of the
    potentials: with the plan P_ij = exp((f_i + g_j - C_ij) / eps + log_a_i
    + log_b_j),

    ```
    dx_i     = d_cost sum_j P_ij grad_x c(x_i, y_j)
    dy_j     = d_cost sum_i P_ij grad_y c(x_i, y_j)
    dlog_a_i = d_cost a_i f_i
    dlog_b_j = d_cost b_j g_j
    ```

    (grad_x c as in mixer.kernel_lse_backward). This is not the derivative
    of the forward's `transport_cost` = sum_ij P_ij C_ij, which leaves out
    the entropy term eps KL(P | a b^T): the cotangent of `transport_cost`
    is applied to OT_eps, the quantity the potentials optimize. The
    gradients are exact at convergence (up to the marginal error of the
    forward's last iteration). OT_eps is defined only where the weights
    balance (sum a = sum b), so only derivatives along log-weight changes
    that keep both sums fixed exist; dlog_a and dlog_b are exact along
    those and are the usual choice off them (the gradient with respect to
    a weight is its potential).

    The potentials get no gradient of their own: the optional cotangents
    `df` [N] and `dg` [M] must be zero. They are operands so that a
    function returning f and g can be differentiated with respect to its
    transport cost; a nonzero one is an error when the code runs
    (mixer-insert-runtime-checks), naming it.

    A composite: mixer-decompose-composites rewrites it into two
    mixer.kernel_lse_point_grad ops (lib/Dialect/Mixer/Transforms/
    DecomposeSinkhornBackward.cpp), each tiled over its rows and
    recomputing the costs block by block, with every exponent <= 0:

    ```
    dx = -eps d_cost   kernel_lse_point_grad(x, y; a = f / eps + log_a, b = g / eps, w = b).grad
    dy = -eps d_cost b kernel_lse_point_grad(y, x; a = g / eps, b = f / eps + log_a, w = 1).grad
    ```

    (sum_i exp((f_i + g_j - C_ij) / eps + log_a_i) = 1 for every j, g
    being the last update), and elementwise ops for dlog_a and dlog_b.

    ```mlir
    %dx, %dy, %dla, %dlb = mixer.sinkhorn_backward cost(sqeuclidean)
        ins(%x, %y, %log_a, %log_b, %eps, %f, %g, %d_cost
            : tensor<1024x3xf32>, tensor<2048x3xf32>, tensor<1024xf32>,
              tensor<2048xf32>, tensor<f32>, tensor<1024xf32>,
              tensor<2048xf32>, tensor<f32>)
        outs(%dx0, %dy0, %dla0, %dlb0 : tensor<1024x3xf32>, tensor<2048x3xf32>,
              tensor<1024xf32>, tensor<2048xf32>)
        -> tensor<1024x3xf32>, tensor<2048x3xf32>, tensor<1024xf32>, tensor<2048xf32>
    ```

    with `df(%df : tensor<1024xf32>)` and `dg(%dg : tensor<2048xf32>)`
    optional, after `ins`.
  }];
  let arguments = (ins Mixer_KernelAttr:$cost,
                       AnyRankedTensor:$x, AnyRankedTensor:$y,
                       AnyRankedTensor:$log_a, AnyRankedTensor:$log_b,
                       AnyRankedTensor:$eps, AnyRankedTensor:$f,
                       AnyRankedTensor:$g, AnyRankedTensor:$d_cost,
                       Optional<AnyRankedTensor>:$df,
                       Optional<AnyRankedTensor>:$dg,
                       Variadic<AnyRankedTensor>:$outs);
  let results = (outs AnyRankedTensor:$dx, AnyRankedTensor:$dy,
                      AnyRankedTensor:$dlog_a, AnyRankedTensor:$dlog_b);
  let assemblyFormat = [{
    `cost` `(` custom<KernelKind>($cost) `)`
    `ins` `(` $x `,` $y `,` $log_a `,` $log_b `,` $eps `,` $f `,` $g `,` $d_cost `:` type($x) `,` type($y) `,` type($log_a) `,` type($log_b) `,` type($eps) `,` type($f) `,` type($g) `,` type($d_cost) `)`
    (`df` `(` $df^ `:` type($df) `)`)?
    (`dg` `(` $dg^ `:` type($dg) `)`)?
    `outs` `(` $outs `:` type($outs) `)` attr-dict `->` type(results)
  }];
  let builders = [
    /// `df` and `dg` may be null (zero); `outInits` holds dx, dy, dlog_a,
    /// dlog_b.
    OpBuilder<(ins "::mlir::mixer::KernelKind":$cost, "::mlir::Value":$x,
                   "::mlir::Value":$y, "::mlir::Value":$logA,
                   "::mlir::Value":$logB, "::mlir::Value":$eps,
                   "::mlir::Value":$f, "::mlir::Value":$g,
                   "::mlir::Value":$dCost, "::mlir::Value":$df,
                   "::mlir::Value":$dg, "::mlir::ValueRange":$outInits)>
  ];
}

#endif // MIXER_DIALECT_MIXER_IR_MIXERKERNELBACKWARDOPS_TD
