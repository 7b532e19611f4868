//===- Passes.td - CPU code generation passes --------------*- tablegen -*-===//

#ifndef MIXER_CODEGEN_CPU_PASSES_TD
#define MIXER_CODEGEN_CPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def MixerApproximateMathPass : Pass<"mixer-approximate-math"> {
  let summary = "Replace exp, log and friends by vectorizable polynomials";
  let description = [{
    Rewrites math.exp, math.log, math.log1p, math.tanh, ... (scalar and
    vector) into the polynomial approximations of MLIR's math dialect
    (within 1e-6 relative for f32), so that they vectorize instead of
    becoming scalar libm calls. Every f32 exp takes math's polynomial with
    its 2^n built from the low bits of one FMA, no floor and no
    float-to-int conversion (17 vector instructions instead of 20); an exp
    of min(v, c) with a constant c <= 0 (the lowerings' exp of values
    <= 0) also without the clamps that x <= 0 makes redundant (15).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::vector::VectorDialect"];
}

def MixerPreferVectorWidthPass : Pass<"mixer-prefer-vector-width", "ModuleOp"> {
  let summary = "Let LLVM's vectorizers use the target's full vector width";
  let description = [{
    Sets `prefer_vector_width` on every llvm.func definition of the module
    to the width of the vector registers of its target description
    (`mixer.target`: 512 bits for AVX-512, 256 for AVX2), unless the
    function sets it already; not on GPU targets. The lowerings' own
    vectors already have that width, but the loops they leave scalar (the
    kernel sums' score blocks, the linalg leftovers) are vectorized by
    LLVM, which on the AVX-512 CPUs that LLVM tunes for 256-bit vectors
    (Intel's and AMD's Zen 4 and 5) would use half-width vectors for them.
    OpenMP's outlined bodies inherit the attribute from the function they
    come from.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def MixerLowerMemrefCopiesPass : Pass<"mixer-lower-memref-copies", "func::FuncOp"> {
  let summary = "Lower memref.copy to vector code or loops";
  let description = [{
    Bufferization copies tiles between strided buffers with memref.copy,
    which the LLVM lowering turns into calls to the `memrefCopy` runtime
    function. This pass rewrites static-shape copies into loops of 1-D
    vector row copies and the others into linalg.copy (scalar loops later),
    so that compiled objects need no MLIR runtime library.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::scf::SCFDialect", "::mlir::ub::UBDialect",
                           "::mlir::vector::VectorDialect"];
}

def MixerVectorizeCpuPass : Pass<"mixer-vectorize-cpu", "func::FuncOp"> {
  let summary = "Register-tile and vectorize linalg ops for the CPU";
  let description = [{
    Tiles each linalg contraction to a register block (rows x vector-width
    columns, one step of the reduction) and each other linalg op to vector
    rows, vectorizes the tiles, hoists the accumulators out of the reduction
    loops and lowers vector.contract to outer-product FMAs.

    The register block, the vector width and the cache blocks (a quarter
    of L2 for the right-hand side) come from the module's `mixer.target`
    (the default target, AVX-512: 8 x 32 blocks, without one); the options,
    when given, override it. A contraction that carries
    `mixer.register_tile_rows = R` (the grouped GEMMs' micro-kernel, shaped
    by its lowering) gets blocks of R rows when R divides its rows. Where
    the block's rows do not divide a contraction's (6-row AVX2 blocks of a
    64-row chunk), the contraction is split: the largest multiple of them
    in full blocks, the rest in a power-of-two block (60 rows, then 4);
    a reduction of fewer than 16 steps takes power-of-two blocks instead.
    A contraction of fewer rows than a block (a row of a triangular solve)
    takes wider columns, up to as many accumulators as a full block.
    Where the target has more registers than such blocks use (AVX-512), a
    contraction over at least 16 reduction steps with rows for two blocks
    takes a wide block of `block-accumulators` accumulators instead: 4
    vectors by their quarter of rows where its columns allow (6 x 64 at 24
    accumulators with 16 lanes), else 2 vectors by half (12 x 32).

    Other ops become vector rows: the innermost dim whole when it is at
    most 4 vectors, else in steps of 2 vectors (4 when the body has a math
    op: an exp's polynomial wants more independent vectors in flight), the
    other dims one at a time with the reductions innermost, so that a
    reduction over an outer dim (the running sums of a transposed block)
    accumulates in registers.

    A 2-D linalg.transpose moves in square blocks, the largest of 16 and 8
    that a vector holds and that divides both dims, each a vector.transpose
    lowered to register shuffles (8 x 8: 24 two-source shuffles of rows);
    other shapes move element by element.

    The element-wise op that makes a contraction's accumulator (a zero
    fill, a copy, a state scaled by its decay), when the contraction is
    its only user and needs no cache blocks, is fused into each register
    block: the block's accumulators start in registers right before its
    reduction loop, instead of after a pass of their own over memory.
  }];
  let options = [
    Option<"vectorWidth", "vector-width", "int64_t", /*default=*/"16",
           "f32 lanes per vector register (when given; else the target's)">,
    Option<"rowTile", "row-tile", "int64_t", /*default=*/"8",
           "Rows of a contraction's register block (when given; else the "
           "target's)">,
    Option<"blockAccumulators", "block-accumulators", "int64_t",
           /*default=*/"24",
           "Accumulators of a contraction's wide register block (when "
           "given; else the target's; at most 2 * row-tile: none)">
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::affine::AffineDialect"];
}

def MixerPrefetchRowsPass : Pass<"mixer-prefetch-rows", "func::FuncOp"> {
  let summary = "Prefetch the rows a loop reads R rows ahead";
  let description = [{
    In every scf.for that carries `mixer.prefetch_rows_ahead = R` (marked by
    mixer-vectorize-cpu: the K loop of a contraction, or the row loop of a
    copy or elementwise op, whose lowering asked for it), each step k that
    reads the row [k, c .. c + w) of a rank-2 buffer (directly, or through a
    one-row memref.subview, a vector read's or a memref.copy's source) also
    prefetches row k + R of that buffer into L2, one memref.prefetch per
    cache line of the row (R < 0: the rows before, for blocks walked from
    the last); a copy's one-row target gets write prefetches.
    A row read in column tiles by a loop nested in the step (with constant
    bounds; AVX2's tiles of an elementwise row) counts as the columns all of
    its tiles read. Buffers the function allocates are left out: the rows past a local tile
    are nothing a later step reads. The grouped GEMMs ask for the same
    panel of the next expert's packed weights, the chunked scans for the rows of
    the next chunk of their time-major inputs and outputs, the selective
    scan for those of its next time block (its backward: the previous
    one). A loop that carries `mixer.prefetch_panel_rows = R` (a
    micro-kernel's K loop whose panel does not stay in L1) prefetches row
    k + R of every row it reads into L1 instead, local buffers included (a
    packed panel: the rows ahead are those its next steps read). Runs after
    bufferization; removes the attributes.
  }];
  let options = [
    Option<"lineBytes", "line-bytes", "int64_t", /*default=*/"64",
           "Bytes of a cache line: one prefetch per line of a row">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
}

def MixerStreamStoresPass : Pass<"mixer-stream-stores", "func::FuncOp"> {
  let summary = "Write outputs that leave the caches with non-temporal stores";
  let description = [{
    For every buffer argument of at least `min-bytes` (0: the target's L2
    per core; a dynamic shape's size is tested at run time, once, where the
    function starts) that the function only writes (every use, through
    views, a vector write, a prefetch or a layout query), each
    vector.transfer_write into it of whole cache lines (an unmasked,
    in-bounds 1-D row or 2-D tile of unit-stride rows, a tile's rows a
    static whole number of lines apart), made in a parallel iteration (or,
    outside one, a function) that computes on float vectors, becomes an
    scf.if on whether its first row starts a cache line: then one
    nontemporal vector.store per row (aligned to the line), else the
    original write. Such an output gains nothing from the caches: its lines
    would be read from memory before they are written and would evict lines
    the loops still use. Code that only moves rows (a dispatch's gather) is
    bound by memory either way, and keeps its output in the last-level cache
    for the next op. An llvm.fence (seq_cst) follows each op holding such
    stores directly in a parallel iteration's body or the function's
    (non-temporal stores are weakly ordered), and the write prefetches of a
    streamed buffer run only where the row they fetch is not streamed. Runs
    after bufferization and mixer-lower-memref-copies.
  }];
  let options = [
    Option<"minBytes", "min-bytes", "int64_t", /*default=*/"0",
           "Smallest output streamed, in bytes (0: the target's L2)">,
    Option<"lineBytes", "line-bytes", "int64_t", /*default=*/"64",
           "Bytes of a cache line: the rows written whole and aligned">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
}

#endif // MIXER_CODEGEN_CPU_PASSES_TD
