//===- FwdBwdRunner.cpp - time a case's forward and backward together -----===//
//
// A fwd+bwd row: the module of the case gains @op_vjp (mixer-generate-vjp),
// which takes @op's inputs, one cotangent per result and one gradient
// output per float input. Each timed iteration calls @op, then @op_vjp on
// the same inputs (so the backward is timed as training runs it after the
// forward); fwd_ms and bwd_ms are the two calls' medians apart. With
// --ab, a second build of both functions is timed in turn with the first
// and its gradients checked in the same way.
//
//===----------------------------------------------------------------------===//

#include "GradientCheck.h"
#include "Runner.h"

#include "mixer/Execution/Compile.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <optional>
#include <string>

using namespace ::mixer::bench;
namespace mc = ::mlir::mixer;
namespace mref = ::mixer::ref;

namespace {
/// A field of /proc/self/status in MB (VmRSS, VmHWM); -1 when absent.
double statusMb(const std::string &field) {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind(field + ":", 0) == 0)
      return std::atof(line.c_str() + field.size() + 1) / 1024.0;
  return -1;
}

/// Resets VmHWM to the current RSS (Linux >= 4.0), so that it then holds
/// the peak of what runs after; false where that is not allowed.
bool resetPeakRss() {
  std::ofstream out("/proc/self/clear_refs");
  out << "5";
  out.flush();
  return bool(out);
}

/// sum_k <cotangent_k, output_k> in fp64.
double loss(const std::vector<const Buffer *> &outputs,
            const std::vector<mref::Tensor> &cotangents) {
  double sum = 0;
  for (size_t k = 0; k < outputs.size(); ++k)
    for (int64_t i = 0, e = cotangents[k].numel(); i < e; ++i)
      sum += cotangents[k][i] * outputs[k]->at(i);
  return sum;
}
} // namespace

namespace mixer::bench {

llvm::Expected<VjpInputs> addVjpFunction(mlir::ModuleOp module,
                                         const std::string &op) {
  auto fn = module.lookupSymbol<mlir::func::FuncOp>(op);
  if (!fn)
    return llvm::createStringError("the module has no function @" + op);
  // The arguments of @op: inputs, then the writable outputs.
  VjpInputs out;
  for (unsigned i = 0, e = fn.getNumArguments(); i < e; ++i) {
    if (fn.getArgAttr(i, "bufferization.writable"))
      continue;
    auto tensor =
        llvm::dyn_cast<mlir::RankedTensorType>(fn.getArgumentTypes()[i]);
    out.inputs.push_back(i);
    if (tensor && llvm::isa<mlir::FloatType>(tensor.getElementType()))
      out.floatInputs.push_back(i);
  }
  if (failed(mc::generateVjpFunctions(module)))
    return llvm::createStringError(kNoBackward);
  return out;
}

llvm::Expected<VjpCall> makeVjpCall(const OpBench &family, Instance &in,
                                    const VjpInputs &vjp, mref::Rng &rng) {
  size_t numInputs = vjp.inputs.size();
  if (in.buffers.size() <= numInputs)
    return llvm::createStringError("the family's buffers do not match @" +
                                   family.op() + "'s arguments");
  // @op_vjp(inputs..., one cotangent per output..., one gradient per float
  // input...).
  VjpCall call;
  call.args.assign(in.args.begin(), in.args.begin() + numInputs);
  for (size_t i = numInputs; i < in.buffers.size(); ++i) {
    const Buffer &out = *in.buffers[i];
    call.owned.push_back(std::make_unique<Buffer>(out.type, out.shape));
    Buffer &cot = *call.owned.back();
    if (out.type == ElementType::F32)
      for (int64_t j = 0, e = cot.numel(); j < e; ++j)
        cot.f32()[j] = family.outputHasCotangent(call.outputs.size())
                           ? static_cast<float>(rng.uniform(-1, 1))
                           : 0.0f;
    call.args.push_back(cot.desc());
    call.outputs.push_back(&out);
    call.cotangents.push_back(cot.toTensor());
  }
  for (unsigned arg : vjp.floatInputs) {
    const Buffer &input = *in.buffers[arg];
    call.owned.push_back(
        std::make_unique<Buffer>(ElementType::F32, input.shape));
    call.gradients.push_back(call.owned.back().get());
    call.args.push_back(call.gradients.back()->desc());
  }
  return call;
}

llvm::Expected<bool> checkReferenceGradients(Row &row, const Job &job,
                                             const Instance &in,
                                             const VjpCall &call) {
  const OpBench &family = *job.family;
  std::vector<mref::Tensor> expected =
      family.referenceGradients(job.c, in, call.cotangents);
  if (expected.empty())
    return false;
  if (expected.size() != call.gradients.size())
    return llvm::createStringError("the reference has " +
                                   std::to_string(expected.size()) +
                                   " gradients, @" + family.op() + "_vjp " +
                                   std::to_string(call.gradients.size()));
  double worst = 0;
  for (size_t i = 0; i < call.gradients.size(); ++i) {
    if (expected[i].data.empty()) // no reference gradient (eps)
      continue;
    Instance one;
    one.expect(*call.gradients[i], std::move(expected[i]));
    worst = std::max(worst, one.relativeError());
  }
  row.relError = worst;
  row.gradCheck = "fp64 reference gradients";
  double tolerance = family.gradientTolerance();
  if (!(*row.relError <= tolerance)) {
    char reason[64];
    std::snprintf(reason, sizeof(reason), "gradient rel_error above %g",
                  tolerance);
    row.status = "inaccurate";
    row.reason = reason;
  }
  return true;
}

/// Calls `jit`'s forward and backward once more, then checks the gradients
/// it computed: against the reference's where it has them (the largest
/// max |g - ref| / max |ref| over the inputs), otherwise against
/// differences of its compiled forward along a random direction
/// (GradientCheck.h). Sets the row's error, its check and, when the error
/// is too large, its status.
static llvm::Error checkGradients(Row &row, const Job &job,
                                  const RunSettings &settings,
                                  const mc::JitModule &jit,
                                  const VjpInputs &vjp, Instance &in,
                                  const VjpCall &call) {
  const OpBench &family = *job.family;
  std::string fn = family.op();
  if (llvm::Error err = jit.call(fn, in.args))
    return err;
  if (llvm::Error err = jit.call(fn + "_vjp", call.args))
    return err;
  if (!settings.finiteDifferenceOnly || !family.gradientOfOutputs()) {
    llvm::Expected<bool> checked = checkReferenceGradients(row, job, in, call);
    if (!checked)
      return checked.takeError();
    if (*checked)
      return llvm::Error::success();
  }

  // Rank-0 inputs (eps, a bandwidth: hyperparameters, some without a
  // gradient) stay fixed.
  std::vector<CheckedInput> checked;
  for (size_t i = 0; i < call.gradients.size(); ++i) {
    Buffer &x = *in.buffers[vjp.floatInputs[i]];
    checked.push_back(
        {llvm::MutableArrayRef<float>(x.f32(), x.numel()),
         llvm::ArrayRef<float>(call.gradients[i]->f32(), x.numel()),
         x.shape.empty()});
  }
  llvm::Expected<DirectionalCheck> check = checkDirectionalDerivative(
      checked,
      [&]() -> llvm::Expected<double> {
        if (llvm::Error err = jit.call(fn, in.args))
          return std::move(err);
        return loss(call.outputs, call.cotangents);
      },
      /*seed=*/20240612);
  if (!check)
    return check.takeError();
  row.relError = check->relError;
  row.gradCheck = directionalCheckName();
  // Extrapolated float32 differences are good to about 1e-4; only a larger
  // error than the family's tolerance and 1e-3 marks the row.
  double tolerance = std::max(1e-3, family.gradientTolerance());
  if (!(*row.relError <= tolerance)) {
    char reason[96];
    std::snprintf(reason, sizeof(reason),
                  "gradient differs from the finite differences by more "
                  "than %g",
                  tolerance);
    row.status = "inaccurate";
    row.reason = reason;
  }
  return llvm::Error::success();
}

Row runFwdBwdJob(const Job &job, const RunSettings &settings) {
  const OpBench &family = *job.family;
  Row row = emptyRow(job);
  auto fail = [&](const std::string &why) {
    row.status = "error";
    row.reason = why;
    return row;
  };
  llvm::Expected<CompiledCase> compiled = compileCase(job, settings, true);
  if (!compiled) {
    std::string why = llvm::toString(compiled.takeError());
    // An op without a backward op: said in words, not an error.
    if (why.rfind(kNoBackward, 0) == 0) {
      row.status = "skipped";
      row.reason = why;
      return row;
    }
    return fail(why);
  }
  row.compileS = compiled->compileS;
  const mc::JitModule &jit = *compiled->jit;
  // --ab: the second build, timed in turn with the first and checked as it.
  std::optional<CompiledCase> secondCase;
  if (!settings.abOptions.empty()) {
    llvm::Expected<CompiledCase> built =
        compileCase(job, settings, true, settings.abOptions);
    if (!built)
      return fail("--ab build: " + llvm::toString(built.takeError()));
    secondCase = std::move(*built);
  }

  mref::Rng rng(20240611);
  Instance in = family.prepare(job.c, rng);
  llvm::Expected<VjpCall> call = makeVjpCall(family, in, compiled->vjp, rng);
  if (!call)
    return fail(llvm::toString(call.takeError()));
  const std::vector<void *> &vjpArgs = call->args;
  std::string fn = family.op(), vjp = fn + "_vjp";

  // One forward call first (it starts the OpenMP threads), so that the RSS
  // growth from here is the forward's and backward's working memory.
  if (llvm::Error err = jit.call(fn, in.args))
    return fail("call failed: " + llvm::toString(std::move(err)));
  // Warm-up, then forward and backward timed apart, iteration by iteration.
  double rssBefore = statusMb("VmRSS");
  bool peakReset = resetPeakRss();
  auto step = [&](const mc::JitModule &module, double *fwdMs,
                  double *bwdMs) -> llvm::Error {
    Clock::time_point start = Clock::now();
    if (llvm::Error err = module.call(fn, in.args))
      return err;
    Clock::time_point mid = Clock::now();
    if (llvm::Error err = module.call(vjp, vjpArgs))
      return err;
    *fwdMs = std::chrono::duration<double>(mid - start).count() * 1e3;
    *bwdMs = secondsSince(mid) * 1e3;
    return llvm::Error::success();
  };
  double f, b;
  Clock::time_point warmStart = Clock::now();
  for (int i = 0; i < 20 && (i == 0 || secondsSince(warmStart) < 0.2); ++i)
    if (llvm::Error err = step(jit, &f, &b))
      return fail("call failed: " + llvm::toString(std::move(err)));
  std::vector<double> fwd, bwd;
  // One timed step of `module`, as timeInTurn calls it; the first build's
  // forward and backward times are kept apart too.
  auto timedStep = [&](const mc::JitModule &module,
                       bool keepParts) -> TimedCall {
    return [&, mod = &module, keepParts]() -> llvm::Expected<double> {
      if (llvm::Error err = step(*mod, &f, &b))
        return std::move(err);
      if (keepParts) {
        fwd.push_back(f);
        bwd.push_back(b);
      }
      return f + b;
    };
  };
  TimedCall first = timedStep(jit, /*keepParts=*/true);
  TimedCall second;
  if (secondCase)
    second = timedStep(*secondCase->jit, /*keepParts=*/false);
  llvm::Expected<TimesInTurn> times =
      timeInTurn(settings.repeat, first, second);
  if (!times)
    return fail(llvm::toString(times.takeError()));
  if (peakReset && rssBefore >= 0)
    row.workRssMb = statusMb("VmHWM") - rssBefore;
  row.peakRssMb = peakRssMb();
  setMedian(row, times->first);
  row.fwdMs = medianOf(fwd);
  row.bwdMs = medianOf(bwd);

  if (llvm::Error err =
          checkGradients(row, job, settings, jit, compiled->vjp, in, *call))
    return fail("call failed: " + llvm::toString(std::move(err)));
  if (secondCase) {
    Row second = emptyRow(job);
    if (llvm::Error err = checkGradients(
            second, job, settings, *secondCase->jit, compiled->vjp, in, *call))
      return fail("--ab call failed: " + llvm::toString(std::move(err)));
    row.abOptions = settings.abOptions;
    setAbMedians(row, *times);
    row.abRelError = second.relError;
    if (second.status != "ok" && row.status == "ok") {
      row.status = second.status;
      row.reason = "--ab build: " + second.reason;
    }
  }
  return row;
}

} // namespace mixer::bench
