//===- OpBench.h - what mixer-bench needs to know about an op ---*- C++ -*-===//
//
// One OpBench per mixer op (a "family" of cases): its cases per suite, the
// MLIR text of a case, its nominal work, its inputs with the fp64 reference,
// whether the naive pipeline is affordable, and its PyTorch baseline. The
// driver (mixer-bench.cpp, Runner, Torch, Report) knows nothing about any op.
// This header and the family files use no MLIR: they build text and buffers.
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_TOOLS_MIXER_BENCH_OPBENCH_H
#define MIXER_TOOLS_MIXER_BENCH_OPBENCH_H

#include "mixer/Reference/Reference.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace mixer::bench {

//===----------------------------------------------------------------------===//
// Cases
//===----------------------------------------------------------------------===//

/// The named sizes of a case, in print order ("B=1 L=512 H=8"), and its
/// flags ("init").
struct Shape {
  std::vector<std::pair<std::string, int64_t>> dims;
  std::vector<std::string> flags;

  /// The size called `name`; aborts when there is none.
  int64_t operator[](const std::string &name) const;
  bool has(const std::string &flag) const;
  /// "B=1 L=512 H=8 init": the dims, then the flags.
  std::string str() const;
};

/// One op at fixed shapes. Names are unique across the whole benchmark.
struct Case {
  std::string name;
  Shape shape;
};

/// A case with `dims` in print order and, in order, the flags whose
/// condition is true.
Case makeCase(const std::string &name,
              std::vector<std::pair<std::string, int64_t>> dims,
              const std::vector<std::pair<std::string, bool>> &flags = {});

//===----------------------------------------------------------------------===//
// Buffers passed to the JIT
//===----------------------------------------------------------------------===//

enum class ElementType { F32, I32, I64 };

/// A 64-byte aligned, zero-filled array with its memref descriptor
/// {allocated, aligned, offset, sizes[R], strides[R]} (rank 0: the first
/// three only).
class Buffer {
public:
  Buffer(ElementType type, std::vector<int64_t> shape);
  Buffer(const Buffer &) = delete;
  Buffer &operator=(const Buffer &) = delete;
  ~Buffer();

  int64_t numel() const;
  /// The memref descriptor, to pass to JitModule::call.
  void *desc() { return descriptor.data(); }
  float *f32() const { return static_cast<float *>(data); }
  int32_t *i32() const { return static_cast<int32_t *>(data); }
  int64_t *i64() const { return static_cast<int64_t *>(data); }
  /// Element `i` widened to double, whatever the element type.
  double at(int64_t i) const;
  /// The f32 contents as the fp64 tensor the reference sees.
  ref::Tensor toTensor() const;

  const ElementType type;
  const std::vector<int64_t> shape;

private:
  void *data;
  std::vector<int64_t> descriptor;
};

/// The buffers of one case, ready to call, and what the outputs should be.
struct Instance {
  /// Whether prepare() computes the fp64 reference: the GPU suite skips it
  /// where it would take longer than the whole run (set per thread by the
  /// runner with ReferenceScope, true by default).
  bool wantsReference() const { return referenceOn; }
  static bool referenceWanted();
  bool referenceOn = referenceWanted();

  /// Adds a buffer whose descriptor is the next argument of the call.
  Buffer &arg(std::vector<int64_t> shape, ElementType type = ElementType::F32);
  /// Adds an f32 argument filled with values uniform in [lo, hi) and
  /// returns them as an fp64 tensor (the same float values, widened).
  ref::Tensor uniform(std::vector<int64_t> shape, ref::Rng &rng, double lo,
                      double hi);
  /// Compares `out` after a call with `expected` (see relativeError).
  void expect(const Buffer &out, ref::Tensor expected);

  /// max |out - ref| / max |ref| over every expected output together;
  /// +infinity when an output is not finite; at least 1 when `exact` is set
  /// and returns false.
  double relativeError() const;

  std::vector<std::unique_ptr<Buffer>> buffers;
  std::vector<void *> args;
  std::vector<std::pair<const Buffer *, ref::Tensor>> expected;
  /// Whether the outputs compared exactly (integer ids, sizes, indices) are
  /// right, for ops that have such outputs.
  std::function<bool()> exact;
};

//===----------------------------------------------------------------------===//
// The family interface
//===----------------------------------------------------------------------===//

/// Within its lifetime, Instances made on this thread skip the reference
/// unless `wanted`.
class ReferenceScope {
public:
  explicit ReferenceScope(bool wanted);
  ~ReferenceScope();

private:
  bool previous;
};

/// The nominal work of a case. The driver reports GFLOP/s (and a fraction
/// of the FMA peak, or of the exp-aware ceiling when there are exps) when
/// flops > 0, otherwise GB/s (and a fraction of the STREAM triad
/// bandwidth) from bytes.
struct Work {
  double flops = 0;
  double bytes = 0;
  /// The exps among the flops' work (kernel sums, gated scans): with flops
  /// they make the ceiling exp-aware (Calibrate.h).
  double exps = 0;
};

/// The PyTorch comparison of a family: a script under bench/ run as
/// `python SCRIPT ARGS... --threads N --repeat N --case C1 --case C2 ...`
/// which prints a {"versions": ...} line and one JSON row per case.
struct TorchBaseline {
  /// Relative to the source tree, e.g. "bench/torch_ssd.py".
  std::string script;
  /// Arguments before the cases, e.g. {"linear_attention"} for a subcommand.
  std::vector<std::string> args;
  /// The impl name of its rows, used for an error row when the script fails.
  std::string impl;
  /// Whether OpenBLAS may use every thread: true when the script's BLAS
  /// calls are not inside PyTorch's parallel regions (a loop of torch.mm);
  /// otherwise OpenBLAS runs on one thread beside PyTorch's pool.
  bool blasThreads = false;
};

class OpBench {
public:
  virtual ~OpBench() = default;

  /// The op without the dialect prefix: "ssd", "kernel_lse". Also the name
  /// of the function the module defines and of the suite of its own cases.
  virtual std::string op() const = 0;
  /// Its cases in `suite`: "cpu" (the default suite, under 10 minutes on
  /// 2 cores with every family), "smoke" (one small case, for tests),
  /// "train" (the public fwd+bwd shapes of a differentiable op), the op's
  /// own name, or its group ("scans", "kernels", "moe"). Empty when the
  /// family is not part of that suite.
  virtual std::vector<Case> cases(const std::string &suite) const = 0;

  /// A module with one public func.func named op() on tensors; outputs are
  /// passed as writable arguments (destination style) and returned.
  virtual std::string module(const Case &c) const = 0;
  virtual Work work(const Case &c) const = 0;
  /// How work() counts, for the JSON config (key "flops_<op>").
  virtual std::string workFormula() const = 0;
  /// Whether work() counts a chunked form at the case's chunk_size, which
  /// the CPU code may shorten (TargetDescription::scanChunk).
  virtual bool countsOpChunk() const { return false; }

  /// Random inputs, zeroed outputs in call order, and the fp64 reference.
  virtual Instance prepare(const Case &c, ref::Rng &rng) const = 0;
  /// The largest rel_error of a correct result, and the name of that
  /// tolerance in messages ("scans").
  virtual double tolerance() const = 0;
  virtual std::string toleranceName() const = 0;

  /// The inner-loop iterations of the scalar naive pipeline (compared with
  /// --naive-max-work, 7e7 by default: B*L*H*P*N of ssd).
  virtual double naiveWork(const Case &c) const = 0;

  virtual TorchBaseline torch() const = 0;

  /// A row-major product C[m,n] = A[m,k] B[k,n].
  struct Gemm {
    int64_t m, n, k;
  };
  /// The GEMMs that do the work of a case, for the cuBLAS comparison of the
  /// GPU suite; empty (the default) for ops that are not GEMM-shaped.
  virtual std::vector<Gemm> gemms(const Case &) const { return {}; }
  /// Whether the GPU kernels of this op are matmul-shaped (tensor cores):
  /// their peak is the tensor cores', else the FP32 units' or the memory's.
  virtual bool usesTensorCores() const { return false; }
  /// The --case argument of `c`; by default "NAME:K=V,K=V,...,FLAG".
  virtual std::string torchCase(const Case &c) const;

  /// Whether the libraries of the bench venv can run `c` on its inputs as
  /// written for mixer (not when they are in a layout of mixer's own, such
  /// as packed weights); the PyTorch scripts make their own inputs.
  virtual bool inputsPortable(const Case &c) const { return true; }

  /// Whether the op is differentiable, so that its cases get fwd+bwd rows
  /// (forward, then the @op_vjp of mixer-generate-vjp) in the "train" and
  /// "smoke" suites, and in others with --fwd-bwd.
  virtual bool differentiable() const { return false; }
  /// The fp64 gradients of the float inputs (in argument order) of the
  /// instance's inputs for `cotangents` (one per output, in order), from
  /// the reference's backward; empty where the reference has none (the
  /// check then uses a finite difference).
  virtual std::vector<ref::Tensor>
  referenceGradients(const Case &c, const Instance &in,
                     const std::vector<ref::Tensor> &cotangents) const {
    return {};
  }
  /// Whether output `k` gets a random cotangent in fwd+bwd rows (else
  /// zero: sinkhorn's potentials have no gradient).
  virtual bool outputHasCotangent(size_t k) const { return true; }
  /// Whether the gradient is that of sum_k <cotangent_k, output_k>, so that
  /// a finite difference of the outputs can check it (not sinkhorn's,
  /// which is that of the OT value: the reference always checks it).
  virtual bool gradientOfOutputs() const { return true; }
  /// The largest relative error of the gradients against the reference's.
  virtual double gradientTolerance() const { return 1e-4; }
};

/// What the scan families (ssd, linear_attention, selective_scan,
/// gated_delta_rule) share: the "scans" suite and tolerance, and two
/// results, the output and the final state.
class ScanBench : public OpBench {
public:
  double tolerance() const override { return 1e-4; }
  std::string toleranceName() const override { return "scans"; }
  bool differentiable() const override { return true; }

protected:
  /// Whether the family's full case list belongs to `suite` ("cpu",
  /// "scans" or the op's name).
  bool inSuite(const std::string &suite) const;
  /// Expects `out` and `state` to hold the reference's two results.
  static void expectScan(Instance &in, const Buffer &out, const Buffer &state,
                         ref::ScanResult expected);
  /// 1/sqrt(Dk), rounded to float as the op's scale attribute holds it.
  static double inverseSqrtScale(int64_t dk);
};

/// Every family in suite order. Add a family here once its op lowers.
std::vector<std::unique_ptr<OpBench>> allFamilies();

std::unique_ptr<OpBench> createSsdBench();
std::unique_ptr<OpBench> createLinearAttentionBench();
std::unique_ptr<OpBench> createSelectiveScanBench();
std::unique_ptr<OpBench> createGatedDeltaRuleBench();
std::unique_ptr<OpBench> createKernelLseBench();
std::unique_ptr<OpBench> createKernelMvBench();
std::unique_ptr<OpBench> createTransportCostBench();
std::unique_ptr<OpBench> createSinkhornBench();
std::unique_ptr<OpBench> createGroupedMatmulBench();
std::unique_ptr<OpBench> createGroupedSwigluBench();
std::unique_ptr<OpBench> createTopkRouterBench();
std::unique_ptr<OpBench> createMoeDispatchBench();
std::unique_ptr<OpBench> createMoeCombineBench();

/// Uneven MoE group sizes summing to `tokens`: proportional to
/// 1 + (5 e mod E), the rounding remainder on the last group (the same rule
/// as bench/torch_moe.py).
std::vector<int64_t> moeGroupSizes(int64_t tokens, int64_t experts);
/// moeGroupSizes(tokens, experts), added to `in` as its next argument (i64
/// [experts]).
std::vector<int64_t> groupSizesArg(Instance &in, int64_t tokens,
                                   int64_t experts);
/// The values of an i64 buffer (the group sizes of an instance).
std::vector<int64_t> groupSizesOf(const Buffer &sizes);

//===----------------------------------------------------------------------===//
// Helpers for building MLIR text
//===----------------------------------------------------------------------===//

/// "tensor<2x3xf32>" (elem "f32", "i32", "i64"); a rank-0 tensor for {}.
std::string tensorType(const std::vector<int64_t> &dims,
                       const std::string &elem = "f32");

/// An f32 attribute value that parses back to float(v) exactly.
std::string floatLiteral(double v);

/// " {bufferization.writable = true}", the attribute of output arguments.
extern const char *const kWritable;

/// A func.func @name on tensors whose body is one op: `inputs`, then
/// `outputs` (marked writable) are its (name, type) arguments; `body` is
/// the op's text assigning `results`, which are returned with the types of
/// `outputs`.
std::string funcModule(const std::string &name,
                       const std::vector<std::pair<std::string, std::string>>
                           &inputs,
                       const std::vector<std::pair<std::string, std::string>>
                           &outputs,
                       const std::string &body,
                       const std::vector<std::string> &results);

/// An optional operand of a scan op: `keyword(%name : type)`.
struct OptionalOperand {
  std::string keyword, name, type;
};

/// The module of a scan family: func @op holding
///   %<out>, %s = mixer.<op> <attrs>ins(<inputs>) <optional...>
///       outs(%<out>0, %s0 : outType, stateType) -> outType, stateType
/// with `attrs` empty or ending in a space; the optional operands follow
/// `inputs` in the function's arguments.
std::string scanModule(const std::string &op, const std::string &attrs,
                       std::vector<std::pair<std::string, std::string>> inputs,
                       const std::vector<OptionalOperand> &optional,
                       const std::string &out, const std::string &outType,
                       const std::string &stateType);

/// "%a, %b : T1, T2" for (name, type) pairs.
std::string operandList(
    const std::vector<std::pair<std::string, std::string>> &operands);

} // namespace mixer::bench

#endif // MIXER_TOOLS_MIXER_BENCH_OPBENCH_H
