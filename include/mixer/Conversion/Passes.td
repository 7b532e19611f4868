//===- Passes.td - mixer conversion passes -----------------*- tablegen -*-===//

#ifndef MIXER_CONVERSION_PASSES_TD
#define MIXER_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertMixerToLinalgPass : Pass<"convert-mixer-to-linalg", "func::FuncOp"> {
  let summary = "Lower mixer ops to their blocked algorithms in linalg on tensors";
  let description = [{
    Rewrites each mixer op into the algorithm the CPU and GPU pipelines
    compile: linalg ops on tensors, with an `scf.for` over the sequential
    dimension (chunks of a scan, column blocks of a kernel sum). Contractions
    are emitted as linalg.generic ops with the reduction dimension innermost
    and a row-major right-hand side, so that register tiling and
    vectorization map them to outer-product FMAs.

    `mixer.ssd` becomes the four steps of Mamba-2's SSD per chunk
    (intra-chunk quadratic block, chunk state, state passing, off-diagonal
    output) for L > `recurrent-threshold`, and the token-by-token recurrence
    otherwise (decode: O(H*P*N) per token).

    `mixer.linear_attention` becomes the same chunked form with the state
    S [Dk, Dv]: per chunk ((Q K^T) * decay mask) V, the inter-chunk
    (diag(decay) Q) S and the state update, with no exp at all when there
    is no log_decay. A window w > 0 is a shift: the output at t + w + 1
    reads S_t, so the chunks run over the keys with the queries and outputs
    read w + 1 tokens later; the first outputs read the initial state and
    the last w + 1 keys only update the state.

    `mixer.selective_scan` runs per (batch, block of up to 64 channels of
    one group) with the state transposed [N, Db]: blocks of 16 tokens
    compute softplus(delta + bias) and dt * u as [16, Db] maps, then each
    token updates the state in place and reads its output row as a
    [1, N] x [N, Db] contraction; D_skip and the silu(z) gate are applied
    to the whole block, written once. The [B, L, D, N] states are never
    formed.

    `mixer.gated_delta_rule` uses the WY (UT) form for full chunks: the
    chunk's effective values solve a unit lower-triangular system by
    forward substitution (static [1, C] x [C, Dv] row contractions), then
    the outputs and the next state are chunk contractions. The tail and
    short sequences use the recurrent form: per token one [2, Dk] x [Dk, Dv]
    contraction reads k^T S and q^T S, and the state is updated in place as
    exp(g) S + k w^T with w = beta (v - exp(g) S^T k).

    `mixer.kernel_lse`, `mixer.kernel_mv` and `mixer.transport_cost` become,
    per block of rows of x, an `scf.for` over static blocks of 64 columns of
    y (the last one padded): squared distances from a contraction with the
    block of y^T plus the squared norms, then the cost or kernel, then an
    online log-sum-exp (running max and sum), a contraction with the block
    of v, or the sum of the plan entries times the costs. The N x M matrix
    is never formed.

    `mixer.grouped_matmul` and `mixer.grouped_swiglu` walk the experts with
    a running row offset (the prefix sum of the run-time group sizes) and
    cover each group's rows with static-height slabs (16 rows, then one
    slab each of 8, 4, 2 and 1 rows for the remainder), so that every
    contraction has static shapes; rows past the sum are zeroed. SwiGLU
    computes gate and up per slab into local buffers and writes
    silu(gate) * up into the output rows. The routing ops are memory-bound:
    the router keeps its per-token scalar loops, dispatch is a counting
    sort followed by row copies, combine a weighted row update per
    dispatched row.

    Every mixer op is lowered or the pass fails: the blocked algorithms
    need the per-head, per-channel and per-point sizes static (batch,
    sequence and point counts may be dynamic), and composite ops are
    expanded by `mixer-decompose-composites` first. Each op that cannot be
    lowered is reported with the reason, e.g.
    `'mixer.ssd' op cannot be lowered: the head count (dim 2 of 'x') must
    be static`, and nothing is rewritten.

    The block sizes (the kernel sums' column block, the MoE row slab, the
    selective scan's time and channel blocks) and the memory space of the
    temporaries (`bufferization.alloc_tensor`) are the module's
    `mixer.target`'s, the default target's (a CPU with AVX-512) without one.

    ```mlir
    // mixer-opt --convert-mixer-to-linalg
    %y, %s = mixer.ssd chunk_size(64) ins(...) outs(...) -> ...
    // becomes an scf.for over ceil(L / 64) chunks of linalg.generic ops.
    ```
  }];
  let options = [
    Option<"recurrentThreshold", "recurrent-threshold", "int64_t", /*default=*/"8",
           "Use the token-by-token recurrence for sequences of at most this length">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::linalg::LinalgDialect", "::mlir::math::MathDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect", "::mlir::vector::VectorDialect"
  ];
}

def ConvertMixerToLoopsPass : Pass<"convert-mixer-to-loops", "func::FuncOp"> {
  let summary = "Lower mixer ops to scalar loops (the naive oracle lowering)";
  let description = [{
    Rewrites each mixer op into the plain scalar loop nest of its definition
    (token-by-token recurrences, dense sums) with `scf.for` over tensors. It
    is deliberately naive: a second oracle for the optimized lowering, and the
    "naive compiled" baseline of mixer-bench.

    Every mixer op is lowered or the pass fails: any sizes are accepted, and
    a composite op (expanded by `mixer-decompose-composites` first) is
    reported as `'mixer.sinkhorn' op cannot be lowered: it is a composite
    op: run mixer-decompose-composites first`.

    ```mlir
    // mixer-opt --convert-mixer-to-loops
    %r = mixer.kernel_lse kernel(gaussian) ins(...) outs(...) -> ...
    // becomes an scf.for over the rows of x of an scf.for over the rows of y.
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::math::MathDialect",
    "::mlir::scf::SCFDialect", "::mlir::tensor::TensorDialect"
  ];
}

#endif // MIXER_CONVERSION_PASSES_TD
