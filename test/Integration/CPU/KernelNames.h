//===- KernelNames.h - the MLIR spelling of reference kernels ---*- C++ -*-===//
//
// The kernel tests build modules for kernels of the fp64 reference: this is
// the `#mixer.kernel<...>` keyword of each.
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_TEST_INTEGRATION_CPU_KERNELNAMES_H
#define MIXER_TEST_INTEGRATION_CPU_KERNELNAMES_H

#include "mixer/Reference/Reference.h"

namespace mixer::test {

inline const char *kindName(::mixer::ref::Kernel kind) {
  using ::mixer::ref::Kernel;
  switch (kind) {
  case Kernel::Gaussian:
    return "gaussian";
  case Kernel::Laplacian:
    return "laplacian";
  case Kernel::Matern32:
    return "matern32";
  case Kernel::InverseMultiquadric:
    return "inverse_multiquadric";
  case Kernel::Linear:
    return "linear";
  case Kernel::SqEuclidean:
    return "sqeuclidean";
  }
  return "?";
}

} // namespace mixer::test

#endif // MIXER_TEST_INTEGRATION_CPU_KERNELNAMES_H
