// RUN: mixer-opt %s --convert-mixer-to-linalg --split-input-file \
// RUN:   | FileCheck %s --check-prefix=CPU
// RUN: mixer-opt %s --mixer-set-target="chip=sm_90" --convert-mixer-to-linalg \
// RUN:   --split-input-file | FileCheck %s --check-prefix=GPU

// The chunked scans' forward runs chunks of at most the target's
// scan_chunk_limit tokens where chunk_size does not change the result: 16 on
// CPUs (one triangular block), none on GPUs (the op's chunk). chunk_size(64)
// over 100 tokens: on a CPU 6 chunks of 16 and a tail from token 96, on a
// GPU one chunk of 64 and a tail from token 64. The gated delta rule's CPU
// chunks are halved, down to 8 tokens, while their causal products
// (C (2 Dk + 2 Dv) FMAs per token) cost more than a quarter of the state's
// (3 Dk Dv): 8 tokens for the small heads here and at Dk = Dv = 64, 16 at
// Dk = Dv = 128.

// CPU-LABEL: func.func @ssd_chunk
// CPU-DAG:     %[[C6:.*]] = arith.constant 6 : index
// CPU-DAG:     %[[C96:.*]] = arith.constant 96 : index
// CPU:         scf.for %{{.*}} = %{{.*}} to %[[C6]] step
// CPU:           tensor.extract_slice %{{.*}} [1, 16, 1, 4] [1, 1, 1, 1] : tensor<1x100x2x4xf32> to tensor<16x4xf32>
// CPU:         scf.for %{{.*}} = %[[C96]] to
// GPU-LABEL: func.func @ssd_chunk
// GPU-DAG:     %[[C64:.*]] = arith.constant 64 : index
// GPU:         tensor.extract_slice %{{.*}} [1, 64, 1, 4] [1, 1, 1, 1] : tensor<1x100x2x4xf32> to tensor<64x4xf32>
// GPU:         scf.for %{{.*}} = %[[C64]] to
func.func @ssd_chunk(%x: tensor<1x100x2x4xf32>, %la: tensor<1x100x2xf32>, %b: tensor<1x100x1x8xf32>, %c: tensor<1x100x1x8xf32>, %y0: tensor<1x100x2x4xf32>, %s0: tensor<1x2x4x8xf32>) -> (tensor<1x100x2x4xf32>, tensor<1x2x4x8xf32>) {
  %y, %s = mixer.ssd chunk_size(64) ins(%x, %la, %b, %c : tensor<1x100x2x4xf32>, tensor<1x100x2xf32>, tensor<1x100x1x8xf32>, tensor<1x100x1x8xf32>) outs(%y0, %s0 : tensor<1x100x2x4xf32>, tensor<1x2x4x8xf32>) -> tensor<1x100x2x4xf32>, tensor<1x2x4x8xf32>
  return %y, %s : tensor<1x100x2x4xf32>, tensor<1x2x4x8xf32>
}

// -----

// CPU-LABEL: func.func @linear_attention_chunk
// CPU-DAG:     %[[C96:.*]] = arith.constant 96 : index
// CPU:         tensor.extract_slice %{{.*}} [1, 16, 1, 8] [1, 1, 1, 1] : tensor<1x100x2x8xf32> to tensor<16x8xf32>
// CPU:         scf.for %{{.*}} = %[[C96]] to
// GPU-LABEL: func.func @linear_attention_chunk
// GPU-DAG:     %[[C64:.*]] = arith.constant 64 : index
// GPU:         tensor.extract_slice %{{.*}} [1, 64, 1, 8] [1, 1, 1, 1] : tensor<1x100x2x8xf32> to tensor<64x8xf32>
// GPU:         scf.for %{{.*}} = %[[C64]] to
func.func @linear_attention_chunk(%q: tensor<1x100x2x8xf32>, %v: tensor<1x100x2x4xf32>, %ld: tensor<1x100x2xf32>, %o0: tensor<1x100x2x4xf32>, %s0: tensor<1x2x8x4xf32>) -> (tensor<1x100x2x4xf32>, tensor<1x2x8x4xf32>) {
  %o, %s = mixer.linear_attention chunk_size(64) scale(0.5) ins(%q, %q, %v : tensor<1x100x2x8xf32>, tensor<1x100x2x8xf32>, tensor<1x100x2x4xf32>) log_decay(%ld : tensor<1x100x2xf32>) outs(%o0, %s0 : tensor<1x100x2x4xf32>, tensor<1x2x8x4xf32>) -> tensor<1x100x2x4xf32>, tensor<1x2x8x4xf32>
  return %o, %s : tensor<1x100x2x4xf32>, tensor<1x2x8x4xf32>
}

// -----

// CPU-LABEL: func.func @gated_delta_rule_chunk
// CPU-DAG:     %[[C96:.*]] = arith.constant 96 : index
// CPU:         tensor.extract_slice %{{.*}} [1, 8, 1, 8] [1, 1, 1, 1] : tensor<1x100x2x8xf32> to tensor<8x8xf32>
// CPU:         scf.for %{{.*}} = %[[C96]] to
// GPU-LABEL: func.func @gated_delta_rule_chunk
// GPU-DAG:     %[[C64:.*]] = arith.constant 64 : index
// GPU:         tensor.extract_slice %{{.*}} [1, 64, 1, 8] [1, 1, 1, 1] : tensor<1x100x2x8xf32> to tensor<64x8xf32>
// GPU:         scf.for %{{.*}} = %[[C64]] to
func.func @gated_delta_rule_chunk(%q: tensor<1x100x2x8xf32>, %v: tensor<1x100x2x4xf32>, %g: tensor<1x100x2xf32>, %o0: tensor<1x100x2x4xf32>, %s0: tensor<1x2x8x4xf32>) -> (tensor<1x100x2x4xf32>, tensor<1x2x8x4xf32>) {
  %o, %s = mixer.gated_delta_rule chunk_size(64) scale(0.5) ins(%q, %q, %v, %g, %g : tensor<1x100x2x8xf32>, tensor<1x100x2x8xf32>, tensor<1x100x2x4xf32>, tensor<1x100x2xf32>, tensor<1x100x2xf32>) outs(%o0, %s0 : tensor<1x100x2x4xf32>, tensor<1x2x8x4xf32>) -> tensor<1x100x2x4xf32>, tensor<1x2x8x4xf32>
  return %o, %s : tensor<1x100x2x4xf32>, tensor<1x2x8x4xf32>
}

// -----

// CPU-LABEL: func.func @gated_delta_rule_chunk_d64
// CPU-DAG:     %[[C12:.*]] = arith.constant 12 : index
// CPU-DAG:     %[[C96:.*]] = arith.constant 96 : index
// CPU:         scf.for %{{.*}} = %{{.*}} to %[[C12]] step
// CPU:           tensor.extract_slice %{{.*}} [1, 8, 1, 64] [1, 1, 1, 1] : tensor<1x100x1x64xf32> to tensor<8x64xf32>
// CPU:         scf.for %{{.*}} = %[[C96]] to
// GPU-LABEL: func.func @gated_delta_rule_chunk_d64
// GPU:         tensor.extract_slice %{{.*}} [1, 64, 1, 64] [1, 1, 1, 1] : tensor<1x100x1x64xf32> to tensor<64x64xf32>
func.func @gated_delta_rule_chunk_d64(%q: tensor<1x100x1x64xf32>, %g: tensor<1x100x1xf32>, %o0: tensor<1x100x1x64xf32>, %s0: tensor<1x1x64x64xf32>) -> (tensor<1x100x1x64xf32>, tensor<1x1x64x64xf32>) {
  %o, %s = mixer.gated_delta_rule chunk_size(64) scale(0.125) ins(%q, %q, %q, %g, %g : tensor<1x100x1x64xf32>, tensor<1x100x1x64xf32>, tensor<1x100x1x64xf32>, tensor<1x100x1xf32>, tensor<1x100x1xf32>) outs(%o0, %s0 : tensor<1x100x1x64xf32>, tensor<1x1x64x64xf32>) -> tensor<1x100x1x64xf32>, tensor<1x1x64x64xf32>
  return %o, %s : tensor<1x100x1x64xf32>, tensor<1x1x64x64xf32>
}

// -----

// CPU-LABEL: func.func @gated_delta_rule_chunk_d128
// CPU-DAG:     %[[C6:.*]] = arith.constant 6 : index
// CPU-DAG:     %[[C96:.*]] = arith.constant 96 : index
// CPU:         scf.for %{{.*}} = %{{.*}} to %[[C6]] step
// CPU:           tensor.extract_slice %{{.*}} [1, 16, 1, 128] [1, 1, 1, 1] : tensor<1x100x1x128xf32> to tensor<16x128xf32>
// CPU:         scf.for %{{.*}} = %[[C96]] to
// GPU-LABEL: func.func @gated_delta_rule_chunk_d128
// GPU:         tensor.extract_slice %{{.*}} [1, 64, 1, 128] [1, 1, 1, 1] : tensor<1x100x1x128xf32> to tensor<64x128xf32>
func.func @gated_delta_rule_chunk_d128(%q: tensor<1x100x1x128xf32>, %g: tensor<1x100x1xf32>, %o0: tensor<1x100x1x128xf32>, %s0: tensor<1x1x128x128xf32>) -> (tensor<1x100x1x128xf32>, tensor<1x1x128x128xf32>) {
  %o, %s = mixer.gated_delta_rule chunk_size(64) scale(0.125) ins(%q, %q, %q, %g, %g : tensor<1x100x1x128xf32>, tensor<1x100x1x128xf32>, tensor<1x100x1x128xf32>, tensor<1x100x1xf32>, tensor<1x100x1xf32>) outs(%o0, %s0 : tensor<1x100x1x128xf32>, tensor<1x1x128x128xf32>) -> tensor<1x100x1x128xf32>, tensor<1x1x128x128xf32>
  return %o, %s : tensor<1x100x1x128xf32>, tensor<1x1x128x128xf32>
}

// -----

// With chunk states, whose rows sit at multiples of chunk_size, every target
// keeps the op's chunk: 3 chunks of 32, the tail from token 96.

// CPU-LABEL: func.func @ssd_chunk_states_keep_chunk
// CPU-DAG:     %[[C3:.*]] = arith.constant 3 : index
// CPU:         scf.for %{{.*}} = %{{.*}} to %[[C3]] step
// CPU:           tensor.extract_slice %{{.*}} [1, 32, 1, 4] [1, 1, 1, 1] : tensor<1x100x2x4xf32> to tensor<32x4xf32>
// GPU-LABEL: func.func @ssd_chunk_states_keep_chunk
// GPU:         tensor.extract_slice %{{.*}} [1, 32, 1, 4] [1, 1, 1, 1] : tensor<1x100x2x4xf32> to tensor<32x4xf32>
func.func @ssd_chunk_states_keep_chunk(%x: tensor<1x100x2x4xf32>, %la: tensor<1x100x2xf32>, %b: tensor<1x100x1x8xf32>, %c: tensor<1x100x1x8xf32>, %y0: tensor<1x100x2x4xf32>, %s0: tensor<1x2x4x8xf32>, %cs0: tensor<1x2x4x8x4xf32>) -> (tensor<1x100x2x4xf32>, tensor<1x2x4x8x4xf32>) {
  %y, %s, %cs = mixer.ssd chunk_size(32) ins(%x, %la, %b, %c : tensor<1x100x2x4xf32>, tensor<1x100x2xf32>, tensor<1x100x1x8xf32>, tensor<1x100x1x8xf32>) outs(%y0, %s0, %cs0 : tensor<1x100x2x4xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8x4xf32>) -> tensor<1x100x2x4xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8x4xf32>
  return %y, %cs : tensor<1x100x2x4xf32>, tensor<1x2x4x8x4xf32>
}

// -----

// The same for linear attention.

// CPU-LABEL: func.func @linear_attention_chunk_states_keep_chunk
// CPU:         tensor.extract_slice %{{.*}} [1, 32, 1, 8] [1, 1, 1, 1] : tensor<1x100x2x8xf32> to tensor<32x8xf32>
// GPU-LABEL: func.func @linear_attention_chunk_states_keep_chunk
// GPU:         tensor.extract_slice %{{.*}} [1, 32, 1, 8] [1, 1, 1, 1] : tensor<1x100x2x8xf32> to tensor<32x8xf32>
func.func @linear_attention_chunk_states_keep_chunk(%q: tensor<1x100x2x8xf32>, %v: tensor<1x100x2x4xf32>, %ld: tensor<1x100x2xf32>, %o0: tensor<1x100x2x4xf32>, %s0: tensor<1x2x8x4xf32>, %cs0: tensor<1x2x4x8x4xf32>) -> (tensor<1x100x2x4xf32>, tensor<1x2x4x8x4xf32>) {
  %o, %s, %cs = mixer.linear_attention chunk_size(32) scale(0.5) ins(%q, %q, %v : tensor<1x100x2x8xf32>, tensor<1x100x2x8xf32>, tensor<1x100x2x4xf32>) log_decay(%ld : tensor<1x100x2xf32>) outs(%o0, %s0, %cs0 : tensor<1x100x2x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x4x8x4xf32>) -> tensor<1x100x2x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x4x8x4xf32>
  return %o, %cs : tensor<1x100x2x4xf32>, tensor<1x2x4x8x4xf32>
}
