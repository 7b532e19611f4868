// Every op through mixer-lower-to-nvvm-pipeline with tensor cores (the
// default) for sm_80 and sm_90a: the kernels of the matmul-shaped ops hold
// mma.sync (m16n8k8, tf32). ptxas.test assembles the same kernels and
// fails on spills.
// REQUIRES: ptxas
// RUN: mixer-opt %S/Inputs/all-ops.mlir -mixer-lower-to-nvvm-pipeline="chip=sm_80" -o %t.sm80.mlir
// RUN: %python %S/Inputs/print_ptx.py %t.sm80.mlir --count mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 | FileCheck %s
// RUN: mixer-opt %S/Inputs/all-ops.mlir -mixer-lower-to-nvvm-pipeline="chip=sm_90a" -o %t.sm90a.mlir
// RUN: %python %S/Inputs/print_ptx.py %t.sm90a.mlir --count mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 | FileCheck %s
// Without tensor cores no kernel has mma.sync.
// RUN: mixer-opt %S/Inputs/all-ops.mlir -mixer-lower-to-nvvm-pipeline="chip=sm_80 tensor-cores=false" -o %t.simt.mlir
// RUN: %python %S/Inputs/print_ptx.py %t.simt.mlir --count mma.sync | FileCheck %s --check-prefix=SIMT

// CHECK-DAG: {{^}}ssd_kernel{{[_0-9]*}} mma.sync{{.*}}={{[1-9][0-9]*$}}
// CHECK-DAG: {{^}}linear_attention_kernel{{[_0-9]*}} mma.sync{{.*}}={{[1-9][0-9]*$}}
// CHECK-DAG: {{^}}gated_delta_rule_kernel{{[_0-9]*}} mma.sync{{.*}}={{[1-9][0-9]*$}}
// CHECK-DAG: {{^}}kernel_mv_kernel{{[_0-9]*}} mma.sync{{.*}}={{[1-9][0-9]*$}}
// CHECK-DAG: {{^}}kernel_lse_kernel{{[_0-9]*}} mma.sync{{.*}}={{[1-9][0-9]*$}}
// CHECK-DAG: {{^}}grouped_matmul_kernel{{[_0-9]*}} mma.sync{{.*}}={{[1-9][0-9]*$}}
// CHECK-DAG: {{^}}grouped_swiglu_kernel{{[_0-9]*}} mma.sync{{.*}}={{[1-9][0-9]*$}}
// The selective scan and the routing ops have no matmul-shaped product.
// CHECK-DAG: {{^}}selective_scan_kernel mma.sync{{.*}}=0{{$}}
// CHECK-DAG: {{^}}topk_router_kernel mma.sync{{.*}}=0{{$}}

// SIMT-NOT: mma.sync={{[1-9]}}
