// RUN: not mixer-opt %s -mixer-gpu-tensor-core-contractions=precision=fp16 2>&1 | FileCheck %s --check-prefix=PRECISION
// RUN: not mixer-opt %s -mixer-gpu-tensor-core-contractions=warp-tile-m=24 2>&1 | FileCheck %s --check-prefix=TILE

// PRECISION: option 'precision' must be 3xtf32 or tf32, got 'fp16'
// TILE: options 'warp-tile-m' and 'warp-tile-n' must be multiples of 16 and 8, got 24 and 32
func.func @f() {
  return
}
