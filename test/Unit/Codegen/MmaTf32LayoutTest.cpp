//===- MmaTf32LayoutTest.cpp - The m16n8k8 tf32 fragments on the CPU ------===//
//
// Checks the fragment tables the tensor-core code generation is built from
// against the PTX description of mma.m16n8k8 with .tf32 operands, checks the
// 3xTF32 split, and emulates the warp-level algorithm that
// mixer-gpu-tensor-core-contractions emits (warp tiles, lanes' fragment
// loads, K steps of 8, the three products, the stores) on the CPU against
// the fp64 reference.
//
//===----------------------------------------------------------------------===//

#include "mixer/Codegen/GPU/MmaTf32Layout.h"
#include "mixer/Reference/Reference.h"

#include "gtest/gtest.h"

#include <array>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

using namespace mixer::gpu;

namespace {

struct RowCol {
  int64_t row, col;
};

// The PTX ISA's words for m16n8k8 .tf32 ("Matrix Fragments for mma.m16n8k8"),
// written out independently of the tables: groupID = laneid >> 2,
// threadID_in_group = laneid % 4.
RowCol ptxA(int64_t lane, int64_t reg) {
  int64_t groupId = lane >> 2, inGroup = lane % 4;
  int64_t row = (reg == 0 || reg == 2) ? groupId : groupId + 8;
  int64_t col = (reg < 2) ? inGroup : inGroup + 4;
  return {row, col};
}
RowCol ptxB(int64_t lane, int64_t reg) {
  int64_t groupId = lane >> 2, inGroup = lane % 4;
  return {reg == 0 ? inGroup : inGroup + 4, groupId};
}
RowCol ptxC(int64_t lane, int64_t reg) {
  int64_t groupId = lane >> 2, inGroup = lane % 4;
  int64_t row = reg < 2 ? groupId : groupId + 8;
  return {row, inGroup * 2 + (reg & 1)};
}

RowCol tableAt(FragmentElement e, int64_t lane) {
  return {e.row.at(lane), e.col.at(lane)};
}

TEST(MmaTf32Layout, TablesMatchPtx) {
  for (int64_t lane = 0; lane < kWarpSize; ++lane) {
    for (int64_t r = 0; r < kMmaARegs; ++r) {
      RowCol t = tableAt(mmaAElement(r), lane), p = ptxA(lane, r);
      EXPECT_EQ(t.row, p.row) << "A lane " << lane << " reg " << r;
      EXPECT_EQ(t.col, p.col) << "A lane " << lane << " reg " << r;
    }
    for (int64_t r = 0; r < kMmaBRegs; ++r) {
      RowCol t = tableAt(mmaBElement(r), lane), p = ptxB(lane, r);
      EXPECT_EQ(t.row, p.row) << "B lane " << lane << " reg " << r;
      EXPECT_EQ(t.col, p.col) << "B lane " << lane << " reg " << r;
    }
    for (int64_t r = 0; r < kMmaCRegs; ++r) {
      RowCol t = tableAt(mmaCElement(r), lane), p = ptxC(lane, r);
      EXPECT_EQ(t.row, p.row) << "C lane " << lane << " reg " << r;
      EXPECT_EQ(t.col, p.col) << "C lane " << lane << " reg " << r;
    }
  }
}

// Each fragment holds every element of its matrix exactly once.
TEST(MmaTf32Layout, FragmentsCoverEachElementOnce) {
  auto coverage = [](int64_t rows, int64_t cols, int64_t regs,
                     FragmentElement (*element)(int64_t)) {
    std::vector<int> seen(rows * cols, 0);
    for (int64_t lane = 0; lane < kWarpSize; ++lane)
      for (int64_t r = 0; r < regs; ++r) {
        RowCol rc = tableAt(element(r), lane);
        EXPECT_TRUE(rc.row >= 0 && rc.row < rows && rc.col >= 0 &&
                    rc.col < cols);
        ++seen[rc.row * cols + rc.col];
      }
    for (int s : seen)
      EXPECT_EQ(s, 1);
  };
  coverage(kMmaM, kMmaK, kMmaARegs, mmaAElement);
  coverage(kMmaK, kMmaN, kMmaBRegs, mmaBElement);
  coverage(kMmaM, kMmaN, kMmaCRegs, mmaCElement);
}

// hi = tf32(x) has 11 significant bits, lo = x - hi is exact and small.
TEST(MmaTf32Layout, SplitIsExact) {
  std::mt19937 gen(7);
  std::uniform_real_distribution<float> mantissa(-1.0f, 1.0f);
  std::uniform_int_distribution<int> exponent(-20, 20);
  for (int i = 0; i < 100000; ++i) {
    float x = std::ldexp(mantissa(gen), exponent(gen));
    float hi = truncateToTf32(x);
    float lo = x - hi;
    uint32_t bits;
    std::memcpy(&bits, &hi, sizeof(bits));
    EXPECT_EQ(bits & ~kTf32Mask, 0u);
    EXPECT_EQ(static_cast<double>(hi) + static_cast<double>(lo),
              static_cast<double>(x));
    EXPECT_LE(std::fabs(lo), std::ldexp(std::fabs(x), -10));
  }
}

/// One lane's registers of the warp.
using AFrag = std::array<std::array<float, kMmaARegs>, kWarpSize>;
using BFrag = std::array<std::array<float, kMmaBRegs>, kWarpSize>;
using CFrag = std::array<std::array<float, kMmaCRegs>, kWarpSize>;

/// The warp's mma.sync as PTX describes it: the matrices rebuilt from the
/// lanes' registers by the PTX layout, inputs read as tf32 (the dropped bits
/// truncated, the least favourable reading), products summed in fp32.
CFrag emulateMma(const AFrag &a, const BFrag &b, const CFrag &c) {
  float am[kMmaM][kMmaK], bm[kMmaK][kMmaN], cm[kMmaM][kMmaN];
  for (int64_t lane = 0; lane < kWarpSize; ++lane) {
    for (int64_t r = 0; r < kMmaARegs; ++r) {
      RowCol p = ptxA(lane, r);
      am[p.row][p.col] = truncateToTf32(a[lane][r]);
    }
    for (int64_t r = 0; r < kMmaBRegs; ++r) {
      RowCol p = ptxB(lane, r);
      bm[p.row][p.col] = truncateToTf32(b[lane][r]);
    }
    for (int64_t r = 0; r < kMmaCRegs; ++r) {
      RowCol p = ptxC(lane, r);
      cm[p.row][p.col] = c[lane][r];
    }
  }
  CFrag d;
  for (int64_t lane = 0; lane < kWarpSize; ++lane)
    for (int64_t r = 0; r < kMmaCRegs; ++r) {
      RowCol p = ptxC(lane, r);
      float sum = cm[p.row][p.col];
      for (int64_t k = 0; k < kMmaK; ++k)
        sum += am[p.row][k] * bm[k][p.col];
      d[lane][r] = sum;
    }
  return d;
}

/// C += A B (row major, M x K times K x N) the way the emitted code does it:
/// 32 x 32 warp tiles (or the largest multiple of 16 x 8 dividing M x N),
/// per-lane fragment loads through the tables, K steps of 8 and, with
/// `split`, the three products a_lo b_hi + a_hi b_lo + a_hi b_hi.
void warpMatmul(const std::vector<float> &a, const std::vector<float> &b,
                std::vector<float> &c, int64_t m, int64_t n, int64_t k,
                bool split) {
  int64_t tileM = 32, tileN = 32;
  while (m % tileM)
    tileM -= kMmaM;
  while (n % tileN)
    tileN -= kMmaN;
  auto hiLo = [&](float x, bool hi) {
    float h = truncateToTf32(x);
    return hi ? h : x - h;
  };
  for (int64_t row0 = 0; row0 < m; row0 += tileM)
    for (int64_t col0 = 0; col0 < n; col0 += tileN)
      for (int64_t i = row0; i < row0 + tileM; i += kMmaM)
        for (int64_t j = col0; j < col0 + tileN; j += kMmaN) {
          CFrag acc;
          for (int64_t lane = 0; lane < kWarpSize; ++lane)
            for (int64_t r = 0; r < kMmaCRegs; ++r) {
              FragmentElement e = mmaCElement(r);
              acc[lane][r] = c[(i + e.row.at(lane)) * n + j + e.col.at(lane)];
            }
          for (int64_t k0 = 0; k0 < k; k0 += kMmaK) {
            AFrag aHi, aLo;
            BFrag bHi, bLo;
            for (int64_t lane = 0; lane < kWarpSize; ++lane) {
              for (int64_t r = 0; r < kMmaARegs; ++r) {
                FragmentElement e = mmaAElement(r);
                float x = a[(i + e.row.at(lane)) * k + k0 + e.col.at(lane)];
                aHi[lane][r] = split ? hiLo(x, true) : x;
                aLo[lane][r] = hiLo(x, false);
              }
              for (int64_t r = 0; r < kMmaBRegs; ++r) {
                FragmentElement e = mmaBElement(r);
                float x = b[(k0 + e.row.at(lane)) * n + j + e.col.at(lane)];
                bHi[lane][r] = split ? hiLo(x, true) : x;
                bLo[lane][r] = hiLo(x, false);
              }
            }
            if (split) {
              acc = emulateMma(aLo, bHi, acc);
              acc = emulateMma(aHi, bLo, acc);
            }
            acc = emulateMma(aHi, bHi, acc);
          }
          for (int64_t lane = 0; lane < kWarpSize; ++lane)
            for (int64_t r = 0; r < kMmaCRegs; ++r) {
              FragmentElement e = mmaCElement(r);
              c[(i + e.row.at(lane)) * n + j + e.col.at(lane)] = acc[lane][r];
            }
        }
}

/// max|out - ref| / max|ref| of the emulated warp code against the fp64
/// reference (grouped_matmul with one group of all rows, plus C).
double relativeError(int64_t m, int64_t n, int64_t k, double range,
                     bool split) {
  std::mt19937 gen(static_cast<unsigned>(m * 131 + n * 7 + k));
  std::uniform_real_distribution<float> dist(-range, range);
  std::vector<float> a(m * k), b(k * n), c(m * n);
  mixer::ref::Tensor lhs({m, k}), rhs({1, k, n});
  for (int64_t i = 0; i < m * k; ++i)
    lhs[i] = a[i] = dist(gen);
  for (int64_t i = 0; i < k * n; ++i)
    rhs[i] = b[i] = dist(gen);
  for (float &x : c)
    x = dist(gen);
  mixer::ref::Tensor ref = mixer::ref::groupedMatmul(lhs, rhs, {m});
  std::vector<float> out = c;
  warpMatmul(a, b, out, m, n, k, split);
  double maxErr = 0, maxRef = 0;
  for (int64_t i = 0; i < m * n; ++i) {
    double expected = ref[i] + static_cast<double>(c[i]);
    maxErr = std::max(maxErr, std::fabs(out[i] - expected));
    maxRef = std::max(maxRef, std::fabs(expected));
  }
  return maxErr / maxRef;
}

struct Case {
  const char *what;
  int64_t m, n, k;
  double range;
};

// Shapes of the contractions that reach the tensor cores: a 64^3 block,
// a chunk product (64 x 64 over d = 128), the kernel sums' cross term
// (x yT over D = 8 and 16), a grouped GEMM tile (K = 512).
const Case kCases[] = {{"block 64^3", 64, 64, 64, 1.0},
                       {"chunk C.Bt, d=128", 64, 64, 128, 1.0},
                       {"kernel cross term, D=8", 128, 64, 8, 3.0},
                       {"kernel cross term, D=16", 64, 128, 16, 3.0},
                       {"grouped GEMM tile, K=512", 32, 64, 512, 1.0}};

TEST(MmaTf32Layout, EmulatedWarpMatmul3xTf32MeetsFp32Tolerance) {
  for (const Case &c : kCases) {
    double err = relativeError(c.m, c.n, c.k, c.range, /*split=*/true);
    std::printf("3xTF32 %-26s M=%lld N=%lld K=%lld: relative error %.2e\n",
                c.what, static_cast<long long>(c.m),
                static_cast<long long>(c.n), static_cast<long long>(c.k), err);
    EXPECT_LT(err, 1e-5) << c.what;
  }
}

// One tf32 product misses both the 1e-5 of the kernel sums and the 1e-4 of
// the scans: the reason every f32 contraction defaults to 3xTF32.
TEST(MmaTf32Layout, EmulatedWarpMatmulPlainTf32MissesIt) {
  for (const Case &c : kCases) {
    double err = relativeError(c.m, c.n, c.k, c.range, /*split=*/false);
    std::printf("tf32   %-26s M=%lld N=%lld K=%lld: relative error %.2e\n",
                c.what, static_cast<long long>(c.m),
                static_cast<long long>(c.n), static_cast<long long>(c.k), err);
    EXPECT_GT(err, 1e-4) << c.what;
  }
}

} // namespace
