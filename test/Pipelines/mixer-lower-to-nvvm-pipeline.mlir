// RUN: mixer-opt %S/../Codegen/GPU/Inputs/all-ops.mlir --mixer-lower-to-nvvm-pipeline \
// RUN:   --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=PIPE
// RUN: mixer-opt %S/../Codegen/GPU/Inputs/all-ops.mlir \
// RUN:   --mixer-lower-to-nvvm-pipeline="chip=sm_80 threads-per-block=256 format=bin" \
// RUN:   --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=OPTS
// RUN: mixer-opt %S/../Codegen/GPU/Inputs/all-ops.mlir \
// RUN:   --mixer-lower-to-nvvm-pipeline="tensor-cores=false tensor-core-precision=tf32 fp-contract=false" \
// RUN:   --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=SIMT
// The GPU-mapped CPU pipeline fuses multiplies and adds as the NVVM one does.
// RUN: mixer-opt %S/../Codegen/GPU/Inputs/all-ops.mlir --mixer-lower-gpu-mapped-to-cpu \
// RUN:   --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=EMU
// RUN: mixer-opt %S/../Codegen/GPU/Inputs/all-ops.mlir --mixer-lower-gpu-mapped-to-cpu=fp-contract=false \
// RUN:   --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=EMU-APART
// The kernels just before gpu-module-to-binary: NVVM ops in one gpu.module per kernel.
// RUN: mixer-opt %S/../Codegen/GPU/Inputs/all-ops.mlir --mixer-lower-to-nvvm-pipeline="chip=sm_80" \
// RUN:   --mlir-print-ir-before=gpu-module-to-binary -o /dev/null 2>&1 | FileCheck %s --check-prefix=NVVM
// The host code and the binaries.
// RUN: mixer-opt %S/../Codegen/GPU/Inputs/all-ops.mlir --mixer-lower-to-nvvm-pipeline="chip=sm_90a" \
// RUN:   | FileCheck %s --check-prefix=HOST --implicit-check-not="= mixer." \
// RUN:       --implicit-check-not=linalg. --implicit-check-not=memref. --implicit-check-not=scf.

// The expanded pass list of the NVVM pipeline, in order.

// PIPE:      builtin.module(
// PIPE-NEXT:   mixer-set-target{chip=sm_90 cpu=host features= overrides= threads-per-block=0},
// PIPE-NEXT:   func.func(
// PIPE-NEXT:     mixer-decompose-composites{ssd-backward-to-scans=false},
// PIPE-NEXT:     linalg-fuse-elementwise-ops,
// PIPE-NEXT:     mixer-tile-parallel-dims{row-block=64},
// PIPE-NEXT:     convert-mixer-to-linalg{recurrent-threshold=8},
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
// PIPE-NEXT:     mixer-map-forall-to-gpu{shared-memory-bytes=-1 tensor-core-precision=3xtf32 tensor-cores=true threads-per-block=0},
// PIPE-NEXT:     scf-forall-to-for,
// PIPE-NEXT:     convert-linalg-to-loops,
// PIPE-NEXT:     canonicalize{
// PIPE-NEXT:     cse
// PIPE-NEXT:   ),
// PIPE-NEXT:   func.func(
// PIPE-NEXT:     mixer-gpu-host-allocs
// PIPE-NEXT:   ),
// PIPE-NEXT:   mixer-emit-c-interface,
// PIPE-NEXT:   gpu-kernel-outlining{
// PIPE-NEXT:   func.func(
// PIPE-NEXT:     gpu-async-region
// PIPE-NEXT:   ),
// PIPE-NEXT:   expand-strided-metadata,
// PIPE-NEXT:   lower-affine,
// PIPE-NEXT:   convert-scf-to-cf{
// PIPE-NEXT:   nvvm-attach-target{O=3 chip=sm_90 {{.*}}features=+ptx80
// PIPE-NEXT:   gpu.module(
// PIPE-NEXT:     mixer-contract-float-ops,
// PIPE-NEXT:     convert-nvgpu-to-nvvm,
// PIPE-NEXT:     convert-gpu-to-nvvm{
// PIPE-NEXT:   ),
// PIPE-NEXT:   gpu-to-llvm{
// PIPE-NEXT:   reconcile-unrealized-casts,
// PIPE-NEXT:   gpu-module-to-binary{format=isa
// PIPE-NEXT:   canonicalize{
// PIPE-NEXT: )

// OPTS: mixer-set-target{chip=sm_80 cpu=host features= overrides= threads-per-block=256}
// OPTS: mixer-map-forall-to-gpu{shared-memory-bytes=-1 tensor-core-precision=3xtf32 tensor-cores=true threads-per-block=256}
// OPTS: nvvm-attach-target{O=3 chip=sm_80
// SIMT: mixer-map-forall-to-gpu{shared-memory-bytes=-1 tensor-core-precision=tf32 tensor-cores=false threads-per-block=0}
// SIMT-NOT: mixer-contract-float-ops
// OPTS: gpu-module-to-binary{format=bin

// EMU:            mixer-gpu-launch-to-cpu,
// EMU:            mixer-approximate-math,
// EMU-NEXT:       mixer-contract-float-ops,
// EMU-APART:      mixer-gpu-launch-to-cpu,
// EMU-APART:      mixer-approximate-math,
// EMU-APART-NOT:  mixer-contract-float-ops

// One block per (batch, head) of the chunked scans (2 x 4), per (batch,
// 64 channels) of the selective scan (2 x 4), per 64 rows of the kernel
// sums (4096 / 64); 128 threads each, with barriers between the ops.
// NVVM-LABEL: gpu.module @ssd_kernel [#nvvm.target<O = 3, chip = "sm_80", features = "+ptx80">]
// NVVM:         llvm.func @ssd_kernel({{.*}}) attributes {gpu.kernel, gpu.known_block_size = array<i32: 128, 1, 1>, gpu.known_grid_size = array<i32: 8, 1, 1>, {{.*}}nvvm.kernel
// NVVM:           nvvm.read.ptx.sreg.ctaid.x
// NVVM:           nvvm.read.ptx.sreg.tid.x
// NVVM:           nvvm.barrier0
// NVVM-LABEL: gpu.module @selective_scan_kernel [#nvvm.target<O = 3, chip = "sm_80", features = "+ptx80">]
// NVVM:         llvm.func @selective_scan_kernel({{.*}}) attributes {gpu.kernel, gpu.known_block_size = array<i32: 128, 1, 1>, gpu.known_grid_size = array<i32: 8, 1, 1>, {{.*}}nvvm.kernel
// NVVM:           nvvm.read.ptx.sreg.ctaid.x
// NVVM:           nvvm.read.ptx.sreg.tid.x
// NVVM:           nvvm.barrier0
// NVVM-LABEL: gpu.module @linear_attention_kernel [#nvvm.target<O = 3, chip = "sm_80", features = "+ptx80">]
// NVVM:         llvm.func @linear_attention_kernel({{.*}}) attributes {gpu.kernel, gpu.known_block_size = array<i32: 128, 1, 1>, gpu.known_grid_size = array<i32: 8, 1, 1>, {{.*}}nvvm.kernel
// NVVM:           nvvm.read.ptx.sreg.ctaid.x
// NVVM:           nvvm.read.ptx.sreg.tid.x
// NVVM:           nvvm.barrier0
// NVVM-LABEL: gpu.module @gated_delta_rule_kernel [#nvvm.target<O = 3, chip = "sm_80", features = "+ptx80">]
// NVVM:         llvm.func @gated_delta_rule_kernel({{.*}}) attributes {gpu.kernel, gpu.known_block_size = array<i32: 128, 1, 1>, gpu.known_grid_size = array<i32: 8, 1, 1>, {{.*}}nvvm.kernel
// NVVM:           nvvm.read.ptx.sreg.ctaid.x
// NVVM:           nvvm.read.ptx.sreg.tid.x
// NVVM:           nvvm.barrier0
// NVVM-LABEL: gpu.module @kernel_mv_kernel [#nvvm.target<O = 3, chip = "sm_80", features = "+ptx80">]
// NVVM:         llvm.func @kernel_mv_kernel({{.*}}) attributes {gpu.kernel, gpu.known_block_size = array<i32: 128, 1, 1>, gpu.known_grid_size = array<i32: 64, 1, 1>, {{.*}}nvvm.kernel
// NVVM:           nvvm.read.ptx.sreg.ctaid.x
// NVVM:           nvvm.read.ptx.sreg.tid.x
// NVVM:           nvvm.barrier0
// NVVM-LABEL: gpu.module @kernel_lse_kernel [#nvvm.target<O = 3, chip = "sm_80", features = "+ptx80">]
// NVVM:         llvm.func @kernel_lse_kernel({{.*}}) attributes {gpu.kernel, gpu.known_block_size = array<i32: 128, 1, 1>, gpu.known_grid_size = array<i32: 64, 1, 1>, {{.*}}nvvm.kernel
// NVVM:           nvvm.read.ptx.sreg.ctaid.x
// NVVM:           nvvm.read.ptx.sreg.tid.x
// NVVM:           nvvm.barrier0
// NVVM-LABEL: gpu.module @transport_cost_kernel [#nvvm.target<O = 3, chip = "sm_80", features = "+ptx80">]
// NVVM:         llvm.func @transport_cost_kernel({{.*}}) attributes {gpu.kernel, gpu.known_block_size = array<i32: 128, 1, 1>, gpu.known_grid_size = array<i32: 64, 1, 1>, {{.*}}nvvm.kernel
// NVVM:           nvvm.read.ptx.sreg.ctaid.x
// NVVM:           nvvm.read.ptx.sreg.tid.x
// NVVM:           nvvm.barrier0
// Sinkhorn: the kernel sums of each half-iteration in blocks of 64 rows,
// the updates between them in kernels of their own.
// NVVM-LABEL: gpu.module @sinkhorn_kernel [#nvvm.target<O = 3, chip = "sm_80", features = "+ptx80">]
// NVVM:         llvm.func @sinkhorn_kernel({{.*}}) attributes {gpu.kernel, gpu.known_block_size = array<i32: 128, 1, 1>, {{.*}}nvvm.kernel
// NVVM:           nvvm.read.ptx.sreg.ctaid.x
// NVVM:           nvvm.read.ptx.sreg.tid.x
// The grouped GEMMs: one block per column block (256 / 128).
// NVVM-LABEL: gpu.module @grouped_matmul_kernel [#nvvm.target<O = 3, chip = "sm_80", features = "+ptx80">]
// NVVM:         llvm.func @grouped_matmul_kernel({{.*}}) attributes {gpu.kernel, gpu.known_block_size = array<i32: 128, 1, 1>, gpu.known_grid_size = array<i32: 2, 1, 1>, {{.*}}nvvm.kernel
// NVVM:           nvvm.read.ptx.sreg.ctaid.x
// NVVM:           nvvm.read.ptx.sreg.tid.x
// NVVM:           nvvm.barrier0
// NVVM-LABEL: gpu.module @grouped_swiglu_kernel [#nvvm.target<O = 3, chip = "sm_80", features = "+ptx80">]
// NVVM:         llvm.func @grouped_swiglu_kernel({{.*}}) attributes {gpu.kernel, gpu.known_block_size = array<i32: 128, 1, 1>, gpu.known_grid_size = array<i32: 2, 1, 1>, {{.*}}nvvm.kernel
// NVVM:           nvvm.read.ptx.sreg.ctaid.x
// NVVM:           nvvm.read.ptx.sreg.tid.x
// NVVM:           nvvm.barrier0
// The router: one block per 64 rows.
// NVVM-LABEL: gpu.module @topk_router_kernel [#nvvm.target<O = 3, chip = "sm_80", features = "+ptx80">]
// NVVM:         llvm.func @topk_router_kernel({{.*}}) attributes {gpu.kernel, gpu.known_block_size = array<i32: 128, 1, 1>, gpu.known_grid_size = array<i32: 4, 1, 1>, {{.*}}nvvm.kernel
// NVVM:           nvvm.read.ptx.sreg.ctaid.x
// NVVM:           nvvm.read.ptx.sreg.tid.x
// The dispatch: the group sizes' fill over all threads, then its counting
// sort in one thread, then the gather of the 512 sorted rows, one block
// each.
// NVVM-LABEL: gpu.module @moe_dispatch_kernel [#nvvm.target<O = 3, chip = "sm_80", features = "+ptx80">]
// NVVM:         llvm.func @moe_dispatch_kernel({{.*}}) attributes {gpu.kernel, gpu.known_block_size = array<i32: 128, 1, 1>, gpu.known_grid_size = array<i32: 1, 1, 1>
// NVVM:           nvvm.read.ptx.sreg.tid.x
// NVVM-LABEL: gpu.module @moe_dispatch_kernel_{{[0-9]+}}
// NVVM:         llvm.func @moe_dispatch_kernel({{.*}}) attributes {gpu.kernel, gpu.known_block_size = array<i32: 1, 1, 1>, gpu.known_grid_size = array<i32: 1, 1, 1>
// NVVM-NOT:       nvvm.barrier0
// NVVM:         llvm.func @moe_dispatch_kernel({{.*}}) attributes {gpu.kernel, gpu.known_block_size = array<i32: 128, 1, 1>, gpu.known_grid_size = array<i32: 512, 1, 1>
// NVVM:           nvvm.read.ptx.sreg.ctaid.x
// NVVM:           nvvm.read.ptx.sreg.tid.x
// The combine: the inverse permutation zeroed over all threads, scattered
// by one block per slot (512), then one block per token (256).
// NVVM-LABEL: gpu.module @moe_combine_kernel [#nvvm.target<O = 3, chip = "sm_80", features = "+ptx80">]
// NVVM:         llvm.func @moe_combine_kernel({{.*}}) attributes {gpu.kernel, gpu.known_block_size = array<i32: 128, 1, 1>, gpu.known_grid_size = array<i32: 4, 1, 1>, {{.*}}nvvm.kernel
// NVVM:         llvm.func @moe_combine_kernel({{.*}}) attributes {gpu.kernel, gpu.known_block_size = array<i32: 128, 1, 1>, gpu.known_grid_size = array<i32: 512, 1, 1>, {{.*}}nvvm.kernel
// NVVM:         llvm.func @moe_combine_kernel({{.*}}) attributes {gpu.kernel, gpu.known_block_size = array<i32: 128, 1, 1>, gpu.known_grid_size = array<i32: 256, 1, 1>, {{.*}}nvvm.kernel
// NVVM:           nvvm.read.ptx.sreg.ctaid.x
// NVVM:           nvvm.read.ptx.sreg.tid.x

// Host functions launch the kernels, with device buffers from mgpuMemAlloc;
// each kernel's gpu.binary holds PTX for sm_90a.
// HOST-LABEL: llvm.func @ssd(
// HOST:         gpu.launch_func <%{{.*}} : !llvm.ptr> @ssd_kernel{{(_[0-9]+)?}}::@ssd_kernel blocks in
// HOST:       gpu.binary @ssd_kernel [#gpu.object<#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx80">, {{.*}}assembly = "{{.*}}.target sm_90a
// HOST-LABEL: llvm.func @selective_scan(
// HOST:         gpu.launch_func <%{{.*}} : !llvm.ptr> @selective_scan_kernel{{(_[0-9]+)?}}::@selective_scan_kernel blocks in
// HOST-LABEL: llvm.func @linear_attention(
// HOST:         gpu.launch_func <%{{.*}} : !llvm.ptr> @linear_attention_kernel{{(_[0-9]+)?}}::@linear_attention_kernel blocks in
// HOST-LABEL: llvm.func @gated_delta_rule(
// HOST:         gpu.launch_func <%{{.*}} : !llvm.ptr> @gated_delta_rule_kernel{{(_[0-9]+)?}}::@gated_delta_rule_kernel blocks in
// HOST-LABEL: llvm.func @kernel_mv(
// HOST:         gpu.launch_func <%{{.*}} : !llvm.ptr> @kernel_mv_kernel{{(_[0-9]+)?}}::@kernel_mv_kernel blocks in
// HOST-LABEL: llvm.func @kernel_lse(
// HOST:         gpu.launch_func <%{{.*}} : !llvm.ptr> @kernel_lse_kernel{{(_[0-9]+)?}}::@kernel_lse_kernel blocks in
// HOST-LABEL: llvm.func @transport_cost(
// HOST:         gpu.launch_func <%{{.*}} : !llvm.ptr> @transport_cost_kernel{{(_[0-9]+)?}}::@transport_cost_kernel blocks in
// HOST-LABEL: llvm.func @sinkhorn(
// HOST:         gpu.launch_func <%{{.*}} : !llvm.ptr> @sinkhorn_kernel{{(_[0-9]+)?}}::@sinkhorn_kernel blocks in
// HOST-LABEL: llvm.func @grouped_matmul(
// HOST:         gpu.launch_func <%{{.*}} : !llvm.ptr> @grouped_matmul_kernel{{(_[0-9]+)?}}::@grouped_matmul_kernel blocks in
// HOST-LABEL: llvm.func @grouped_swiglu(
// HOST:         gpu.launch_func <%{{.*}} : !llvm.ptr> @grouped_swiglu_kernel{{(_[0-9]+)?}}::@grouped_swiglu_kernel blocks in
// HOST-LABEL: llvm.func @topk_router(
// HOST:         gpu.launch_func <%{{.*}} : !llvm.ptr> @topk_router_kernel{{(_[0-9]+)?}}::@topk_router_kernel blocks in
// HOST-LABEL: llvm.func @moe_dispatch(
// HOST:         gpu.launch_func <%{{.*}} : !llvm.ptr> @moe_dispatch_kernel{{(_[0-9]+)?}}::@moe_dispatch_kernel blocks in
// HOST-LABEL: llvm.func @moe_combine(
// HOST:         gpu.launch_func <%{{.*}} : !llvm.ptr> @moe_combine_kernel{{(_[0-9]+)?}}::@moe_combine_kernel blocks in
