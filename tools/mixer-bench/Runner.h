//===- Runner.h - compile, check and time one case --------------*- C++ -*-===//

#ifndef MIXER_TOOLS_MIXER_BENCH_RUNNER_H
#define MIXER_TOOLS_MIXER_BENCH_RUNNER_H

#include "Calibrate.h"
#include "OpBench.h"
#include "Row.h"
#include "Timing.h"

#include "mixer/Execution/JitModule.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace mixer::bench {

/// A case of a family through one of mixer's pipelines.
struct Job {
  const OpBench *family;
  Case c;
  /// "mixer" (the optimized CPU pipeline), "mixer-naive", or
  /// kFwdBwdImpl (the optimized pipeline, forward then @op_vjp).
  std::string impl;
};

/// The impl of the rows that time the forward and its vector-Jacobian
/// product together.
inline constexpr const char *kFwdBwdImpl = "mixer-fwd+bwd";
/// How the reason of a fwd+bwd row starts when mixer-generate-vjp cannot
/// differentiate the op (its backward op does not exist yet).
inline constexpr const char *kNoBackward = "no backward yet";

struct RunSettings {
  int threads = 0; ///< 0: the pipeline's default
  int repeat = 10;
  double naiveMaxWork = 7.0e7;
  /// Compile with the run-time checks of the pipeline (its default).
  bool runtimeChecks = true;
  /// Check fwd+bwd gradients by a finite difference even where the family
  /// has reference gradients (--grad-check=fd).
  bool finiteDifferenceOnly = false;
  /// The CPU to compile for (LLVM name and feature changes, CodeTarget);
  /// empty: this machine's.
  std::string targetCpu, targetFeatures;
  /// Where each compiled case's machine code goes as CASE.IMPL.o, to read
  /// its assembly; empty: nowhere.
  std::string objectDir;
  /// Whether the JIT tells perf where each case's code lies
  /// (JitOptions::enablePerfProfiling).
  bool perfProfile = false;
  /// mixer-bench --ab: CPU pipeline options of a second build of each
  /// mixer row, timed call by call in turn with the first (empty: none).
  std::string abOptions;
  /// The calibration (0: not measured); the denominators of peak_fraction.
  Ceilings ceilings;
};

/// Compiles the case's module (timed apart), runs it on the family's inputs,
/// checks it against the reference, then times `repeat` warm calls that
/// reuse their buffers. Never aborts on a failure: the row says what failed.
Row runJob(const Job &job, const RunSettings &settings);

/// runJob in a forked child that sends its row back through a pipe; the
/// row's peak memory is the child's, and a crash becomes an error row.
Row runJobIsolated(const Job &job, const RunSettings &settings);

/// Sets peak_fraction from gflops (or gbps) and the ceiling the case's
/// work calls for (chooseCeiling), and names that ceiling in `peak`.
void setPeakFraction(Row &row, const Work &work, const RunSettings &settings);

//===----------------------------------------------------------------------===//
// Shared by runJob and runFwdBwdJob
//===----------------------------------------------------------------------===//

/// The argument numbers of @op's inputs (those not marked writable), and
/// of those the float tensors (which get gradients from @op_vjp).
struct VjpInputs {
  std::vector<unsigned> inputs, floatInputs;
};

/// Adds @op_vjp to a family's module (mixer-generate-vjp), for the CPU and
/// the GPU pipelines alike. The error says "the module has no function
/// @op" or starts with kNoBackward; the diagnostics go to the context.
llvm::Expected<VjpInputs> addVjpFunction(mlir::ModuleOp module,
                                         const std::string &op);

/// The arguments of @op_vjp for an instance of the family: its inputs, one
/// cotangent per output (uniform in [-1, 1), zero for integer outputs and
/// those the family says have no gradient), one gradient per float input.
struct VjpCall {
  std::vector<void *> args;
  std::vector<const Buffer *> outputs;
  std::vector<ref::Tensor> cotangents;
  std::vector<Buffer *> gradients;
  /// The cotangents', then the gradients' buffers, in argument order.
  std::vector<std::unique_ptr<Buffer>> owned;
};
llvm::Expected<VjpCall> makeVjpCall(const OpBench &family, Instance &in,
                                    const VjpInputs &vjp, ref::Rng &rng);

/// Checks the gradients of `call` against the family's fp64 reference
/// gradients (the largest max |g - ref| / max |ref| over the inputs):
/// sets rel_error, grad_check, and the status above gradientTolerance().
/// False where the reference has no gradients for the op.
llvm::Expected<bool> checkReferenceGradients(Row &row, const Job &job,
                                             const Instance &in,
                                             const VjpCall &call);

/// A case's module compiled and JIT-loaded (the context outlives the JIT).
struct CompiledCase {
  std::unique_ptr<mlir::MLIRContext> context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  std::unique_ptr<mlir::mixer::JitModule> jit;
  double compileS = 0;
  /// With the VJP: which arguments of @op are inputs.
  VjpInputs vjp;
};

/// Parses the family's module, with `withVjp` adds @op_vjp
/// (mixer-generate-vjp; an error starting with kNoBackward when the op has
/// no backward), lowers it with the job's pipeline and JIT-loads it. The
/// error names what failed, with the first diagnostic.
/// `extraOptions`, when not empty, are CPU pipeline options parsed over the
/// job's own (mixer-bench --ab's second build).
llvm::Expected<CompiledCase> compileCase(const Job &job,
                                         const RunSettings &settings,
                                         bool withVjp,
                                         llvm::StringRef extraOptions = "");

/// The forward, then @op_vjp on the same inputs with fixed random
/// cotangents, timed together (and apart); the gradients are checked
/// against the family's fp64 reference gradients where it has them,
/// otherwise against a directional finite difference of the compiled
/// forward (FwdBwdRunner.cpp).
Row runFwdBwdJob(const Job &job, const RunSettings &settings);

/// A row of the job with no result yet.
Row emptyRow(const Job &job);

/// A context with the dialects the compiler reads and creates.
std::unique_ptr<mlir::MLIRContext> newCompilerContext();

/// While it lives, keeps the first error reported in `context` in
/// `firstError` (the detail of a failed compilation's message).
class FirstErrorRecorder : public mlir::ScopedDiagnosticHandler {
public:
  FirstErrorRecorder(mlir::MLIRContext *context, std::string &firstError)
      : ScopedDiagnosticHandler(context, [&firstError](mlir::Diagnostic &diag) {
          if (diag.getSeverity() == mlir::DiagnosticSeverity::Error &&
              firstError.empty())
            firstError = diag.str();
          return mlir::success();
        }) {}
};
/// median_ms, q1_ms, q3_ms of `times`.
void setMedian(Row &row, std::vector<double> times);

/// ab_median_ms and ab_ratio, the medians of the second build's times and
/// of the ratios.
void setAbMedians(Row &row, const TimesInTurn &times);

/// The row of a case's round (mixer-bench --rounds) whose median time is
/// the median of the rounds' (the upper one of an even count), with every
/// round's median beside it; the first round that did not succeed where one
/// did not (a failure is never outvoted).
Row medianRound(const std::vector<Row> &rounds);
double medianOf(std::vector<double> times);
/// Marks the row inaccurate (naming `what`) when rel_error is above the
/// family's tolerance.
void checkTolerance(Row &row, const OpBench &family, const std::string &what);
/// This process's ru_maxrss in MB.
double peakRssMb();

} // namespace mixer::bench

#endif // MIXER_TOOLS_MIXER_BENCH_RUNNER_H
