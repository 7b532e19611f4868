// RUN: mixer-opt %s --mixer-prefer-vector-width | FileCheck %s --check-prefix=DEFAULT
// RUN: mixer-opt %s --mixer-set-target="cpu=sapphirerapids" --mixer-prefer-vector-width | FileCheck %s --check-prefix=AVX512
// RUN: mixer-opt %s --mixer-set-target="cpu=znver4" --mixer-prefer-vector-width | FileCheck %s --check-prefix=AVX512
// RUN: mixer-opt %s --mixer-set-target="cpu=znver3" --mixer-prefer-vector-width | FileCheck %s --check-prefix=AVX2
// RUN: mixer-opt %s --mixer-set-target="chip=sm_90" --mixer-prefer-vector-width | FileCheck %s --check-prefix=GPU

// Every function defined in the module prefers the target's vector width
// (512 bits with AVX-512, 256 with AVX2; a module without mixer.target is
// for the default CPU, AVX-512); a width the function names already is
// kept, a declaration gets none, and GPU targets are left alone.

// DEFAULT-LABEL: llvm.func @scores
// DEFAULT-SAME:    prefer_vector_width = "512"
// AVX512-LABEL:  llvm.func @scores
// AVX512-SAME:     prefer_vector_width = "512"
// AVX2-LABEL:    llvm.func @scores
// AVX2-SAME:       prefer_vector_width = "256"
// GPU-LABEL:     llvm.func @scores
// GPU-NOT:         prefer_vector_width
// GPU:             llvm.return
llvm.func @scores(%x: f32) -> f32 {
  llvm.return %x : f32
}

// DEFAULT-LABEL: llvm.func @named
// DEFAULT-SAME:    prefer_vector_width = "128"
// AVX2-LABEL:    llvm.func @named
// AVX2-SAME:       prefer_vector_width = "128"
llvm.func @named(%x: f32) -> f32 attributes {prefer_vector_width = "128"} {
  llvm.return %x : f32
}

// DEFAULT-LABEL: llvm.func @declared
// DEFAULT-NOT:     prefer_vector_width
// DEFAULT:         }
// AVX512-LABEL:  llvm.func @declared
// AVX512-NOT:      prefer_vector_width
// AVX512:          }
llvm.func @declared(f32) -> f32
