//===- BackwardTestSupport.h - one backward op called from tests -*- C++ -*-===//
//
// What the gradient tests of the backward ops share: a function holding one
// backward op (its leading operands in ins(...), the optional ones under
// their keywords, one destination per gradient), random buffers, and the
// relative error of a gradient against the reference.
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_TEST_INTEGRATION_CPU_BACKWARDTESTSUPPORT_H
#define MIXER_TEST_INTEGRATION_CPU_BACKWARDTESTSUPPORT_H

#include "TestSupport.h"

#include "mixer/Reference/Reference.h"

#include <limits>

namespace mixer::test {

/// An argument of the function: an operand (in ins(...) when `keyword` is
/// empty, else under `keyword`) or a destination.
struct BackwardArg {
  std::string name, keyword;
  Buffer buffer;
};

struct BackwardProblem {
  std::vector<BackwardArg> operands, outs;
  /// The gradient names, in result order.
  std::vector<std::string> gradNames;

  /// Adds a destination of `shape` filled with NaN, so that an element the
  /// op fails to write shows in the error.
  void addGradient(const std::string &name, std::vector<int64_t> shape) {
    int64_t n = 1;
    for (int64_t s : shape)
      n *= s;
    outs.push_back({"g_" + name, "",
                    {shape, std::vector<float>(
                                n, std::numeric_limits<float>::quiet_NaN())}});
    gradNames.push_back(name);
  }

  std::vector<Buffer *> buffers() {
    std::vector<Buffer *> all;
    for (BackwardArg &a : operands)
      all.push_back(&a.buffer);
    for (BackwardArg &a : outs)
      all.push_back(&a.buffer);
    return all;
  }
};

inline Buffer randomBuffer(::mixer::ref::Rng &rng, std::vector<int64_t> shape,
                           double lo, double hi) {
  return {shape, ::mixer::ref::toFloats(rng.uniformTensor(shape, lo, hi))};
}

inline ::mixer::ref::Tensor tensorOf(const Buffer &b) {
  return ::mixer::ref::fromFloats(b.shape, b.data.data());
}

/// func @bwd(operands..., destinations...) -> (gradients...) holding
/// `opHead` (the op name and attributes) applied to the problem.
inline std::string backwardModule(const std::string &opHead,
                                  const BackwardProblem &p) {
  auto typeOf = [](const BackwardArg &a) { return tensorType(a.buffer.shape); };
  auto list = [&](const std::vector<BackwardArg> &args, bool types,
                  bool ins) {
    std::ostringstream os;
    bool first = true;
    for (const BackwardArg &a : args) {
      if (ins && !a.keyword.empty())
        continue;
      os << (first ? "" : ", ") << (types ? typeOf(a) : "%" + a.name);
      first = false;
    }
    return os.str();
  };
  std::ostringstream os;
  os << "func.func @bwd(";
  bool first = true;
  for (const BackwardArg &a : p.operands) {
    os << (first ? "" : ", ") << "%" << a.name << ": " << typeOf(a);
    first = false;
  }
  for (const BackwardArg &a : p.outs)
    os << ", %" << a.name << ": " << typeOf(a)
       << " {bufferization.writable = true}";
  std::string results = list(p.outs, true, false);
  os << ") -> (" << results << ") {\n  %r:" << p.outs.size() << " = "
     << opHead << " ins(" << list(p.operands, false, true) << " : "
     << list(p.operands, true, true) << ")";
  for (const BackwardArg &a : p.operands)
    if (!a.keyword.empty())
      os << " " << a.keyword << "(%" << a.name << " : " << typeOf(a) << ")";
  os << " outs(" << list(p.outs, false, false) << " : " << results << ") -> "
     << results << "\n  return ";
  for (size_t i = 0; i < p.outs.size(); ++i)
    os << (i ? ", " : "") << "%r#" << i;
  os << " : " << results << "\n}\n";
  return os.str();
}

/// Sums a per-batch gradient [B, ...] over the batch.
inline ::mixer::ref::Tensor sumOverBatch(const Buffer &perBatch) {
  std::vector<int64_t> shape(perBatch.shape.begin() + 1, perBatch.shape.end());
  ::mixer::ref::Tensor sum(shape);
  int64_t inner = sum.numel();
  for (size_t i = 0; i < perBatch.data.size(); ++i)
    sum[i % inner] += perBatch.data[i];
  return sum;
}

} // namespace mixer::test

#endif // MIXER_TEST_INTEGRATION_CPU_BACKWARDTESTSUPPORT_H
