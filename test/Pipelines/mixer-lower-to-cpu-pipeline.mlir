// RUN: mixer-opt %s --mixer-lower-to-cpu-pipeline --dump-pass-pipeline -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PIPE
// RUN: mixer-opt %s --mixer-lower-to-cpu-pipeline=naive=true --dump-pass-pipeline -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NAIVE
// RUN: mixer-opt %s --mixer-lower-to-cpu-pipeline=runtime-checks=false --dump-pass-pipeline -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=UNCHECKED
// RUN: mixer-opt %s --mixer-lower-to-cpu-pipeline=fp-contract=false --dump-pass-pipeline -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=APART
// RUN: mixer-opt %s --mixer-lower-to-cpu-pipeline=prefer-vector-width=false --dump-pass-pipeline -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=LLVM-WIDTH
// RUN: mixer-opt %s --mixer-lower-to-cpu-pipeline="vector-width=8 recurrent-threshold=4 num-threads=2" \
// RUN:   --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=OPTS
// (" mixer." is an op; the messages of the run-time checks quote op names.)
// RUN: mixer-opt %s --mixer-lower-to-cpu-pipeline \
// RUN:   | FileCheck %s --check-prefix=LLVM \
// RUN:       --implicit-check-not=" mixer." --implicit-check-not=linalg. \
// RUN:       --implicit-check-not=tensor. --implicit-check-not=bufferization. \
// RUN:       --implicit-check-not=memref. --implicit-check-not=scf. \
// RUN:       --implicit-check-not=vector. --implicit-check-not=math. \
// RUN:       --implicit-check-not=arith. --implicit-check-not=affine. \
// RUN:       --implicit-check-not=func. --implicit-check-not=cf. \
// RUN:       --implicit-check-not=llvm.intr.exp

// The expanded pass list of the CPU pipeline, in order.

// PIPE:      builtin.module(
// PIPE-NEXT:   mixer-insert-runtime-checks,
// PIPE-NEXT:   func.func(
// PIPE-NEXT:     mixer-decompose-composites{ssd-backward-to-scans=false},
// PIPE-NEXT:     linalg-fuse-elementwise-ops,
// PIPE-NEXT:     mixer-tile-parallel-dims{row-block=64},
// PIPE-NEXT:     convert-mixer-to-linalg{recurrent-threshold=8},
// PIPE-NEXT:     canonicalize{
// PIPE-NEXT:     cse
// PIPE-NEXT:   ),
// PIPE-NEXT:   func.func(
// PIPE-NEXT:     mixer-vectorize-cpu{block-accumulators=24 row-tile=8 vector-width=16},
// PIPE-NEXT:     canonicalize{
// PIPE-NEXT:     cse
// PIPE-NEXT:   ),
// PIPE-NEXT:   eliminate-empty-tensors,
// PIPE-NEXT:   one-shot-bufferize{
// PIPE-SAME:     bufferize-function-boundaries=true
// PIPE-SAME:     function-boundary-type-conversion=identity-layout-map
// PIPE-NEXT:   canonicalize{
// PIPE-NEXT:   drop-equivalent-buffer-results,
// PIPE-NEXT:   mixer-drop-returned-arguments,
// PIPE-NEXT:   cse,
// PIPE-NEXT:   func.func(
// PIPE-NEXT:     buffer-loop-hoisting
// PIPE-NEXT:   ),
// PIPE-NEXT:   func.func(
// PIPE-NEXT:     promote-buffers-to-stack{
// PIPE-SAME:       max-alloc-size-in-bytes=65536
// PIPE-SAME:       max-rank-of-allocated-memref=2
// PIPE-NEXT:   ),
// PIPE-NEXT:   expand-realloc{
// PIPE-NEXT:   canonicalize{
// PIPE-NEXT:   ownership-based-buffer-deallocation{
// PIPE-NEXT:   canonicalize{
// PIPE-NEXT:   buffer-deallocation-simplification,
// PIPE-NEXT:   bufferization-lower-deallocations,
// PIPE-NEXT:   cse,
// PIPE-NEXT:   canonicalize{
// PIPE-NEXT:   func.func(
// PIPE-NEXT:     mixer-prefetch-rows{line-bytes=64}
// PIPE-NEXT:   ),
// PIPE-NEXT:   mixer-approximate-math,
// PIPE-NEXT:   mixer-contract-float-ops,
// PIPE-NEXT:   func.func(
// PIPE-NEXT:     mixer-lower-memref-copies,
// PIPE-NEXT:     mixer-stream-stores{line-bytes=64 min-bytes=0}
// PIPE-NEXT:   ),
// PIPE-NEXT:   mixer-emit-c-interface,
// PIPE-NEXT:   func.func(
// PIPE-NEXT:     scf-forall-to-parallel
// PIPE-NEXT:   ),
// PIPE-NEXT:   convert-scf-to-openmp{num-threads=0},
// PIPE-NEXT:   func.func(
// PIPE-NEXT:     convert-linalg-to-loops
// PIPE-NEXT:   ),
// PIPE-NEXT:   convert-vector-to-scf{
// PIPE-SAME:     full-unroll=true
// PIPE-NEXT:   expand-strided-metadata,
// PIPE-NEXT:   lower-affine,
// PIPE-NEXT:   convert-vector-to-llvm{
// PIPE-NEXT:   finalize-memref-to-llvm{
// PIPE-NEXT:   convert-scf-to-cf{
// PIPE-NEXT:   convert-to-llvm{
// PIPE-NEXT:   reconcile-unrealized-casts,
// PIPE-NEXT:   mixer-prefer-vector-width,
// PIPE-NEXT:   canonicalize{
// PIPE-NEXT: )

// prefer-vector-width=false: LLVM's vectorizers keep the CPU's tuning.
// LLVM-WIDTH:      reconcile-unrealized-casts,
// LLVM-WIDTH-NEXT: canonicalize{

// naive=true: the scalar loops of convert-mixer-to-loops replace tiling,
// the linalg lowering and vectorization; the rest is the same.

// Without run-time checks the pipeline starts at the decomposition.
// UNCHECKED:      builtin.module(
// UNCHECKED-NEXT:   func.func(
// UNCHECKED-NEXT:     mixer-decompose-composites{ssd-backward-to-scans=false},

// fp-contract=false: the multiplies and adds stay apart.
// APART:        mixer-approximate-math,
// APART-NEXT:   func.func(
// APART-NEXT:     mixer-lower-memref-copies,

// NAIVE:      builtin.module(
// NAIVE-NEXT:   mixer-insert-runtime-checks,
// NAIVE-NEXT:   func.func(
// NAIVE-NEXT:     mixer-decompose-composites{ssd-backward-to-scans=true},
// NAIVE-NEXT:     linalg-fuse-elementwise-ops,
// NAIVE-NEXT:     convert-mixer-to-loops,
// NAIVE-NEXT:     canonicalize{
// NAIVE-NEXT:     cse
// NAIVE-NEXT:   ),
// NAIVE-NEXT:   eliminate-empty-tensors,
// NAIVE-NEXT:   one-shot-bufferize{
// NAIVE-NEXT:   canonicalize{
// NAIVE-NEXT:   drop-equivalent-buffer-results,
// NAIVE-NEXT:   mixer-drop-returned-arguments,
// NAIVE-NEXT:   cse,
// NAIVE-NEXT:   func.func(
// NAIVE-NEXT:     buffer-loop-hoisting
// NAIVE:        mixer-approximate-math,
// NAIVE-NEXT:   func.func(
// NAIVE-NEXT:     mixer-lower-memref-copies,
// NAIVE-NEXT:     mixer-stream-stores{line-bytes=64 min-bytes=0}
// NAIVE-NEXT:   ),
// NAIVE-NEXT:   mixer-emit-c-interface,
// NAIVE-NEXT:   func.func(
// NAIVE-NEXT:     scf-forall-to-parallel
// NAIVE-NEXT:   ),
// NAIVE-NEXT:   convert-scf-to-openmp{num-threads=0},
// NAIVE:        reconcile-unrealized-casts,
// NAIVE-NEXT:   mixer-prefer-vector-width,
// NAIVE-NEXT:   canonicalize{
// NAIVE-NEXT: )

// The options reach their passes.

// OPTS: convert-mixer-to-linalg{recurrent-threshold=4}
// OPTS: mixer-vectorize-cpu{block-accumulators=24 row-tile=8 vector-width=8}
// OPTS: convert-scf-to-openmp{num-threads=2}

// A small mixer.ssd function lowered to the LLVM dialect: the results written
// into the writable outs arguments leave the signature, a C interface wrapper
// takes the seven memref descriptors by pointer, the (batch, head) forall
// became an OpenMP parallel loop, the contractions vector FMAs and every exp
// a polynomial.

// LLVM:       llvm.func @ssd(
// LLVM-NOT:     -> !llvm.struct
// LLVM-SAME:    attributes {llvm.emit_c_interface, prefer_vector_width = "512"}
// LLVM:         omp.parallel
// LLVM:           omp.wsloop
// LLVM:             llvm.intr.fma({{.*}}) : (vector<16xf32>, vector<16xf32>, vector<16xf32>) -> vector<16xf32>
// LLVM:       llvm.func @_mlir_ciface_ssd(
// LLVM-SAME:    {{(%[^:]+: !llvm.ptr, ){6}%[^:]+: !llvm.ptr}})
// LLVM:         llvm.call @ssd({{.*}}) -> ()
func.func @ssd(%x: tensor<1x100x2x4xf32>, %la: tensor<1x100x2xf32>,
               %b: tensor<1x100x1x8xf32>, %c: tensor<1x100x1x8xf32>,
               %h: tensor<1x2x4x8xf32>,
               %y0: tensor<1x100x2x4xf32> {bufferization.writable = true},
               %s0: tensor<1x2x4x8xf32> {bufferization.writable = true})
    -> (tensor<1x100x2x4xf32>, tensor<1x2x4x8xf32>) {
  %y, %s = mixer.ssd chunk_size(32)
      ins(%x, %la, %b, %c : tensor<1x100x2x4xf32>, tensor<1x100x2xf32>,
                            tensor<1x100x1x8xf32>, tensor<1x100x1x8xf32>)
      init(%h : tensor<1x2x4x8xf32>)
      outs(%y0, %s0 : tensor<1x100x2x4xf32>, tensor<1x2x4x8xf32>)
      -> tensor<1x100x2x4xf32>, tensor<1x2x4x8xf32>
  return %y, %s : tensor<1x100x2x4xf32>, tensor<1x2x4x8xf32>
}
