//===- Passes.td - mixer transformation passes -------------*- tablegen -*-===//

#ifndef MIXER_DIALECT_MIXER_TRANSFORMS_PASSES_TD
#define MIXER_DIALECT_MIXER_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def MixerDecomposeCompositesPass
    : Pass<"mixer-decompose-composites", "func::FuncOp"> {
  let summary = "Rewrite composite mixer ops into the mixer ops they are made of";
  let description = [{
    Composite ops have no lowering of their own: this pass, the first step
    of the pipelines, rewrites them into loops of the mixer ops that are
    tiled and lowered, plus elementwise linalg ops.

    `mixer.sinkhorn` becomes an `scf.for` over its `iterations`, each of two
    `mixer.kernel_lse` with the same cost, the f update then the g update
    (g starts at 0):

    ```
    f = -eps * kernel_lse(x, y, g / eps + log_b)
    g = -eps * kernel_lse(y, x, f / eps + log_a)
    ```

    The loop carries the log-sums L_f, L_g (f = -eps L_f, so g / eps =
    -L_g) in the `outs` tensors of f and g, each written in place by its
    kernel_lse; f and g are scaled by -eps once after the loop. Then a
    `mixer.transport_cost` of the plan's log-scalings f / eps + log_a and
    g / eps + log_b gives the per-row costs sum_j P_ij C_ij,
    P_ij = exp((f_i + g_j - C_ij) / eps + log_a_i + log_b_j), tiled and
    lowered like the kernel sums (the N x M plan is never formed), and a
    reduction sums them into the transport cost.

    Example:

    ```mlir
    %f, %g, %c = mixer.sinkhorn cost(sqeuclidean) iterations(10)
        ins(%x, %y, %la, %lb, %eps : tensor<100x3xf32>, tensor<80x3xf32>,
                                     tensor<100xf32>, tensor<80xf32>, tensor<f32>)
        outs(%f0, %g0, %c0 : tensor<100xf32>, tensor<80xf32>, tensor<f32>)
        -> tensor<100xf32>, tensor<80xf32>, tensor<f32>
    // becomes
    %lg0 = linalg.fill ins(%zero : f32) outs(%g0 : tensor<80xf32>)
    %l:2 = scf.for %it = %c0 to %c10 step %c1 iter_args(%lf = %f0, %lg = %lg0) {
      %wb = linalg.generic ... ins(%lg, %lb)          // log_b - L_g
      %lf1 = mixer.kernel_lse kernel(sqeuclidean) ins(%x, %y, %eps ...)
          g(%wb : tensor<80xf32>) outs(%lf : tensor<100xf32>)
      %wa = linalg.generic ... ins(%lf1, %la)         // log_a - L_f
      %lg1 = mixer.kernel_lse kernel(sqeuclidean) ins(%y, %x, %eps ...)
          g(%wa : tensor<100xf32>) outs(%lg : tensor<80xf32>)
      scf.yield %lf1, %lg1
    }
    %f = linalg.generic ... outs(%l#0)                // -eps L_f
    %g = linalg.generic ... outs(%l#1)                // -eps L_g
    %lu = linalg.generic ... ins(%f, %la)             // f / eps + log_a
    %lv = linalg.generic ... ins(%g, %lb)             // g / eps + log_b
    %rows = mixer.transport_cost cost(sqeuclidean)    // sum_j P_ij C_ij per row
        ins(%x, %y, %lu, %lv, %eps ...) outs(%r0 : tensor<100xf32>)
    %c = linalg.generic ... ins(%rows) outs(%c0)      // sum over the rows
    ```

    `mixer.linear_attention_backward` becomes a `mixer.ssd_backward` with
    one group per head (states transposed, the window a shift of q and do;
    docs/Backward.md), which convert-mixer-to-linalg lowers as a chunked
    reverse scan. With `ssd-backward-to-scans` (the naive pipeline, whose
    scalar loops have no backward of their own), `mixer.ssd_backward`
    becomes forward `mixer.ssd` scans and elementwise linalg ops: the state
    cotangent is a scan in reversed time with the decay shifted by one
    token; the gradients of b and c are scans with the roles of the state
    dims exchanged; the decay gradient is a reverse cumulative sum (an ssd
    with one-element states) of terms arranged so that nothing cancels in
    f32.

    ```mlir
    %g:4 = mixer.ssd_backward chunk_size(16) ins(%x, %la, %b, %c : ...)
        dy(%dy : ...) outs(...)
    // becomes, with ssd-backward-to-scans (rev: a linalg.generic reading
    // token L-1-t)
    %dx_rev, %d0 = mixer.ssd ins(rev(%dy), la', rev(%c), rev(%b)) ...
    %db_rev, %_ = mixer.ssd ins(a' rev(%c)_{t-1}, la', rev(%dy)_{t-1}, rev(%x)) ...
    %dc, %_ = mixer.ssd ins(a %b_{t-1}, %la, %x_{t-1}, %dy) ...
    %dla_rev, %_ = mixer.ssd ins(<decay terms>, 0, 1, 1) ...
    ```
  }];
  let options = [
    Option<"ssdBackwardToScans", "ssd-backward-to-scans", "bool",
           /*default=*/"false",
           "Rewrite mixer.ssd_backward into forward mixer.ssd scans (for "
           "lowerings without a backward of their own: the naive pipeline)">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::bufferization::BufferizationDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect"];
}

def MixerGenerateVjpPass : Pass<"mixer-generate-vjp", "ModuleOp"> {
  let summary = "Emit the vector-Jacobian product @f_vjp of every public function";
  let description = [{
    For each public function `@f` with a body, made of mixer ops and
    elementwise linalg, arith, math and tensor ops, emits a public function
    `@f_vjp` in reverse mode. It follows the C ABI of public functions (the
    inputs, then one writable `outs` argument per result):

    ```
    @f_vjp(inputs of f..., one cotangent per result of f...,
           one writable out per floating-point tensor input of f...)
        -> the gradient of every floating-point tensor input of f
    ```

    The body recomputes the forward (the `outs` arguments of `@f` become
    `tensor.empty` of their cotangent's sizes), then walks its ops in
    reverse, summing the cotangents of values used more than once:

    - a mixer op through its `DifferentiableOpInterface` (its backward op);
    - a `linalg.generic` whose maps are projected permutations, with
      parallel loops and reduction loops that only accumulate (`out + e`),
      by differentiating its scalar body: one generic computes the
      cotangents of all its operands of the same indexing map, summing over
      the loops missing from the map (a broadcast: one generic with a
      reduction per broadcast map); named linalg ops (elementwise,
      transpose, matmul) are generalized first;
    - `linalg.fill`, `tensor.empty` (no cotangent), `tensor.extract_slice`,
      `tensor.insert_slice` and `tensor.cast`.

    The scalar bodies may use arith.addf/subf/mulf/divf/negf/maximumf/
    minimumf/select/cmpf/extf/truncf, constants, math.exp/log/log1p/tanh/
    sqrt/rsqrt/absf. Anything else with a cotangent to propagate is an error
    naming the op. Integer results take a cotangent argument too, which is
    ignored; integer inputs get no gradient. Functions that already have a
    `_vjp` and the generated ones are left alone, so the pass may run twice.

    Example:

    ```mlir
    func.func @silu(%x: tensor<8xf32>, %y0: tensor<8xf32> {bufferization.writable = true})
        -> tensor<8xf32>
    // gains
    func.func @silu_vjp(%x: tensor<8xf32>, %dy: tensor<8xf32>,
                        %dx0: tensor<8xf32> {bufferization.writable = true})
        -> tensor<8xf32>
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::tensor::TensorDialect"];
}

def MixerInsertRuntimeChecksPass
    : Pass<"mixer-insert-runtime-checks", "ModuleOp"> {
  let summary = "Check dynamic sizes and operand values before each mixer op";
  let description = [{
    The verifiers check what is static. What is only known when the code
    runs is checked here, from the same contract the verifier states
    (ShapeContract.h): dynamic sizes that must agree between operands
    ('log_a' dim 1 (L) against 'x' dim 1 (L)), derived sizes (the T*k rows
    of the MoE ops, k <= E, heads a multiple of groups, slot counts that fit
    in i32), and operand values: log-decays and log-gates <= 0, eps and
    bandwidths > 0, expert ids and permutation entries in range, group sizes
    non-negative with a sum of at most T.

    Each mixer op with something to check is wrapped in an `scf.if` on the
    conjunction of its checks. When one fails, the op does not run (its
    `outs` pass through unchanged) and each failed check calls
    `mixerRuntimeCheckFailed(message, a, b)` of the mixer runtime
    (include/mixer/Runtime/RuntimeChecks.h), which records the first
    failure of the calling thread with the observed sizes in its message;
    the C API and Python report it as an error naming the operand and the
    dimension. The checks read sizes and, for value rules, one pass over
    the operand (a reduction), outside the op's parallel loops.

    Example:

    ```mlir
    %y, %s = mixer.ssd ins(%x, %la, %b, %c : tensor<2x?x4x8xf32>,
        tensor<2x?x4xf32>, ...) outs(...)
    // becomes
    %lx = tensor.dim %x, %c1
    %ll = tensor.dim %la, %c1
    %same = arith.cmpi eq, %ll, %lx
    %max = linalg.generic {reduction} ins(%la) outs(...)  // max of log_a
    %nonpos = arith.cmpf ole, %max, %zero
    %ok = arith.andi %same, %nonpos
    %r:2 = scf.if %ok -> (...) {
      %y, %s = mixer.ssd ...
      scf.yield %y, %s
    } else {
      scf.if %not_same {
        func.call @mixerRuntimeCheckFailed(%msg, %ll, %lx)
      }
      ...
      scf.yield %y0, %s0
    }
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect"];
}

def MixerTileParallelDimsPass : Pass<"mixer-tile-parallel-dims", "func::FuncOp"> {
  let summary = "Tile the parallel dimensions of mixer ops into scf.forall";
  let description = [{
    Tiles every mixer op through its TilingInterface so that each iteration
    of the resulting `scf.forall` handles one unit of independent work: one
    batch entry and a block of heads of a chunked scan (the target's
    `scan_head_block_limit` at most, leaving a tile per thread; one head on
    GPUs), one (batch, channel block) of the selective scan (the block lying
    in one group), one (batch, row block) of a kernel
    sum, one column block of a grouped GEMM. The forall becomes OpenMP threads on the
    CPU and thread blocks on the GPU. Elementwise linalg producers of the
    operands (the dt scaling of x, gates) are fused: each tile computes its
    own slice of them.

    The tile sizes are each op's `ParallelTilingOpInterface` answer for the
    module's `mixer.target` (the default target without one): its parallel
    row block, its head block limit and the selective scan's channel block
    limit.
  }];
  let options = [
    Option<"rowBlock", "row-block", "int64_t", /*default=*/"64",
           "Rows per tile of the kernel reductions and MoE ops (when given; "
           "else the target's)">
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::affine::AffineDialect"];
}

#endif // MIXER_DIALECT_MIXER_TRANSFORMS_PASSES_TD
