//===- KernelSumBench.h - what the kernel-sum families share ----*- C++ -*-===//
//
// kernel_lse, kernel_mv, transport_cost and sinkhorn: cases listed per
// suite, points uniform in the unit cube, the kernel-sum tolerance, the
// naive work N*M*D and the dense PyTorch baseline.
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_TOOLS_MIXER_BENCH_KERNELSUMBENCH_H
#define MIXER_TOOLS_MIXER_BENCH_KERNELSUMBENCH_H

#include "OpBench.h"

namespace mixer::bench {

class KernelSumBench : public OpBench {
public:
  double tolerance() const override { return 1e-5; }
  std::string toleranceName() const override { return "kernel sums"; }

  /// The dense pairwise sum: N*M*D.
  double naiveWork(const Case &c) const override {
    const Shape &s = c.shape;
    return double(s["N"]) * s["M"] * s["D"];
  }

  TorchBaseline torch() const override {
    return {"bench/torch_kernels.py", {op()}, "torch-dense"};
  }

protected:
  /// A family's cases, per suite.
  struct SuiteCases {
    std::vector<Case> smoke, gpu, gpuSmoke, train, cpu;
    /// Added to `cpu` in the kernels suite and the op's own.
    std::vector<Case> beyondCpu = {};
  };

  /// The cases of `suite` in `table`; none for a suite it does not list.
  std::vector<Case> casesOf(const std::string &suite,
                            const SuiteCases &table) const {
    if (suite == "smoke")
      return table.smoke;
    if (suite == "gpu")
      return table.gpu;
    if (suite == "gpu-smoke")
      return table.gpuSmoke;
    if (suite == "train")
      return table.train;
    if (suite != "cpu" && suite != "kernels" && suite != op())
      return {};
    std::vector<Case> cases = table.cpu;
    if (suite != "cpu")
      cases.insert(cases.end(), table.beyondCpu.begin(),
                   table.beyondCpu.end());
    return cases;
  }

  /// The points x [N, D] and y [M, D], uniform in the unit cube: the first
  /// two arguments of every kernel sum.
  static std::pair<ref::Tensor, ref::Tensor>
  uniformPoints(Instance &in, const Shape &s, ref::Rng &rng) {
    ref::Tensor x = in.uniform({s["N"], s["D"]}, rng, 0, 1);
    ref::Tensor y = in.uniform({s["M"], s["D"]}, rng, 0, 1);
    return {std::move(x), std::move(y)};
  }
};

} // namespace mixer::bench

#endif // MIXER_TOOLS_MIXER_BENCH_KERNELSUMBENCH_H
