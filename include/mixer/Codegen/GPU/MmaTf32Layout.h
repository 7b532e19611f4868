//===- MmaTf32Layout.h - Fragments of the m16n8k8 tf32 mma ------*- C++ -*-===//
//
// Which matrix element each lane of a warp holds in each register of the
// operands of `mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32`, and the
// tf32 split of an fp32 value. The GPU code generation builds its fragment
// loads and stores from these tables; the unit tests check them against the
// PTX description and emulate the warp's products on the CPU. Plain C++, no
// MLIR, so that both can include it.
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_CODEGEN_GPU_MMATF32LAYOUT_H
#define MIXER_CODEGEN_GPU_MMATF32LAYOUT_H

#include <cstdint>
#include <cstring>

namespace mixer::gpu {

/// Shape of one warp-level product: D[16x8] = A[16x8] * B[8x8] + C[16x8].
constexpr int64_t kMmaM = 16, kMmaN = 8, kMmaK = 8, kWarpSize = 32;
/// Registers per lane: A holds 4 elements, B 2, C and D 4.
constexpr int64_t kMmaARegs = 4, kMmaBRegs = 2, kMmaCRegs = 4;

/// An index `group * lane / 4 + inGroup * (lane % 4) + offset`: every
/// fragment coordinate is affine in the lane's group (lane / 4) and its
/// thread in the group (lane % 4).
struct LaneAffine {
  int64_t group, inGroup, offset;
  int64_t at(int64_t lane) const {
    return group * (lane / 4) + inGroup * (lane % 4) + offset;
  }
};

/// Row and column of one register of a fragment.
struct FragmentElement {
  LaneAffine row, col;
};

/// A (16x8, row major): a0 (g, t), a1 (g+8, t), a2 (g, t+4), a3 (g+8, t+4).
inline FragmentElement mmaAElement(int64_t reg) {
  return {{1, 0, 8 * (reg % 2)}, {0, 1, 4 * (reg / 2)}};
}
/// B (8x8, K x N, column major): b0 (t, g), b1 (t+4, g).
inline FragmentElement mmaBElement(int64_t reg) {
  return {{0, 1, 4 * reg}, {1, 0, 0}};
}
/// C and D (16x8): c0 (g, 2t), c1 (g, 2t+1), c2 (g+8, 2t), c3 (g+8, 2t+1).
/// nvgpu holds them as vector<2x2xf32>: element [reg / 2][reg % 2].
inline FragmentElement mmaCElement(int64_t reg) {
  return {{1, 0, 8 * (reg / 2)}, {0, 2, reg % 2}};
}

/// tf32 keeps the sign, the 8 exponent bits and the top 10 of the 23
/// mantissa bits of an fp32 value: this mask clears the other 13.
constexpr uint32_t kTf32Mask = 0xffffe000u;

/// The tf32 value nearest to `x` towards zero: exact as a tensor-core input,
/// whatever rounding the hardware applies to the dropped bits.
inline float truncateToTf32(float x) {
  uint32_t bits;
  std::memcpy(&bits, &x, sizeof(bits));
  bits &= kTf32Mask;
  float y;
  std::memcpy(&y, &bits, sizeof(y));
  return y;
}

} // namespace mixer::gpu

#endif // MIXER_CODEGEN_GPU_MMATF32LAYOUT_H
