//===- ScanBackwardTest.cpp - compiled ssd/linear_attention backward ------===//
//
// Builds a function holding one mixer.ssd_backward or
// mixer.linear_attention_backward, compiles it through the CPU pipeline
// (its chunked reverse scan; the naive pipeline's forward scans), runs it
// through the JIT on random inputs and cotangents and compares every
// gradient with the fp64 reference gradients. Each case prints the relative error
// max|grad - ref| / max|ref| of every gradient.
//
//===----------------------------------------------------------------------===//

#include "BackwardCases.h"

#include "mixer/Reference/Gradients.h"
#include "mixer/Reference/Reference.h"

#include <cstdio>

using namespace mixer::test;
namespace ref = ::mixer::ref;

namespace {

constexpr double kTolerance = 1e-4;

/// An argument of the compiled function: its SSA name, its data and, for
/// an `outs` argument, that it is written in place and returned.
struct Arg {
  std::string name;
  Buffer buffer;
  bool isOut = false;
};

/// func @bwd(<args>) -> (<outs>) { <prologue> <op> ins ... outs(<outs>);
/// return }. `body` is the op's text up to `outs(`; `prologue` holds whole
/// ops that it reads.
std::string backwardModule(const std::vector<Arg> &args,
                           const std::string &body,
                           const std::string &prologue) {
  std::ostringstream os, outs, outTypes;
  os << "func.func @bwd(";
  bool first = true, firstOut = true;
  for (const Arg &a : args) {
    os << (first ? "" : ", ") << "%" << a.name << ": "
       << tensorType(a.buffer.shape);
    first = false;
    if (!a.isOut)
      continue;
    os << " {bufferization.writable = true}";
    outs << (firstOut ? "" : ", ") << "%" << a.name;
    outTypes << (firstOut ? "" : ", ") << tensorType(a.buffer.shape);
    firstOut = false;
  }
  os << ") -> (" << outTypes.str() << ") {\n" << prologue << "  %g:"
     << std::count_if(
      args.begin(), args.end(), [](const Arg &a) { return a.isOut; })
     << " = " << body << " outs(" << outs.str() << " : " << outTypes.str()
     << ") -> " << outTypes.str() << "\n  return %g#0";
  int64_t n = 0;
  for (const Arg &a : args)
    if (a.isOut && n++ > 0)
      os << ", %g#" << n - 1;
  os << " : " << outTypes.str() << "\n}\n";
  return os.str();
}

/// A float buffer holding `t` rounded, and `t` replaced by the rounded
/// values (the reference sees what the compiled code sees).
Buffer rounded(ref::Tensor &t) {
  Buffer buf{t.shape, ref::toFloats(t)};
  t = ref::fromFloats(t.shape, buf.data.data());
  return buf;
}

Buffer outBuffer(const std::vector<int64_t> &shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return {shape, std::vector<float>(n, -7.0f)};
}

/// Runs the module compiled by `runner` and returns the out buffers, in
/// order.
std::vector<Buffer> runBackward(std::vector<Arg> &args, const std::string &body,
                                const GradientRunner &runner,
                                const std::string &prologue = "") {
  std::string source = backwardModule(args, body, prologue);
  std::unique_ptr<CompiledModule> module = runner.compile(source);
  EXPECT_TRUE(module->ok()) << "compilation failed:\n" << source;
  if (!module->ok())
    return {};
  std::vector<Buffer *> buffers;
  for (Arg &a : args)
    buffers.push_back(&a.buffer);
  module->callBuffers("bwd", buffers);
  std::vector<Buffer> outs;
  for (Arg &a : args)
    if (a.isOut)
      outs.push_back(a.buffer);
  return outs;
}

/// Checks and prints the relative error of each gradient.
void expectGradients(const std::string &what, const std::vector<Buffer> &got,
                     const std::vector<std::pair<const char *, const ref::Tensor *>>
                         &expected) {
  ASSERT_EQ(got.size(), expected.size());
  std::printf("%s: relative error", what.c_str());
  for (size_t i = 0; i < got.size(); ++i) {
    double err = ref::relativeError(got[i].data.data(), *expected[i].second);
    std::printf(" %s %.3g", expected[i].first, err);
    EXPECT_LE(err, kTolerance) << expected[i].first;
  }
  std::printf("\n");
}

//===----------------------------------------------------------------------===//
// ssd_backward
//===----------------------------------------------------------------------===//

std::string caseName(const SsdCase &c) {
  std::ostringstream os;
  os << "B" << c.B << "_L" << c.L << "_H" << c.H << "_P" << c.P << "_G" << c.G
     << "_N" << c.N << "_Q" << c.chunk << (c.withInit ? "_init" : "")
     << (c.withDy ? "_dy" : "") << (c.withDFinal ? "_dfinal" : "")
     << (c.decays == Decays::NearZero       ? "_decay0"
         : c.decays == Decays::NearMinusTen ? "_decay10"
                                            : "")
     << (c.naive ? "_naive" : "") << (c.savedStates ? "_saved" : "");
  return os.str();
}

ref::Tensor logDecays(ref::Rng &rng, std::vector<int64_t> shape,
                      Decays decays) {
  switch (decays) {
  case Decays::NearZero:
    return rng.uniformTensor(shape, -1e-3, 0.0);
  case Decays::NearMinusTen:
    return rng.uniformTensor(shape, -10.0, -9.0);
  default:
    return rng.uniformTensor(shape, -1.0, 0.0);
  }
}

} // namespace

void mixer::test::ssdBackwardCase(const SsdCase &s,
                                  const GradientRunner &runner) {
  ref::Rng rng(2024);
  std::vector<int64_t> xs = {s.B, s.L, s.H, s.P}, las = {s.B, s.L, s.H},
                       bs = {s.B, s.L, s.G, s.N}, ss = {s.B, s.H, s.P, s.N};
  ref::Tensor x = rng.uniformTensor(xs, -1, 1);
  ref::Tensor la = logDecays(rng, las, s.decays);
  ref::Tensor b = rng.uniformTensor(bs, -1, 1);
  ref::Tensor c = rng.uniformTensor(bs, -1, 1);
  ref::Tensor init = rng.uniformTensor(ss, -1, 1);
  ref::Tensor dy = rng.uniformTensor(xs, -1, 1);
  ref::Tensor dS = rng.uniformTensor(ss, -1, 1);

  std::vector<Arg> args = {{"x", rounded(x)},
                           {"la", rounded(la)},
                           {"b", rounded(b)},
                           {"c", rounded(c)}};
  if (s.withInit)
    args.push_back({"h", rounded(init)});
  if (s.withDy)
    args.push_back({"dy", rounded(dy)});
  if (s.withDFinal)
    args.push_back({"ds", rounded(dS)});
  for (auto shape : {xs, las, bs, bs})
    args.push_back({"o" + std::to_string(args.size()), outBuffer(shape), true});
  if (s.withInit)
    args.push_back({"odh", outBuffer(ss), true});

  std::ostringstream body;
  body << "mixer.ssd_backward chunk_size(" << s.chunk
       << ") ins(%x, %la, %b, %c : " << tensorType(xs) << ", "
       << tensorType(las) << ", " << tensorType(bs) << ", " << tensorType(bs)
       << ")";
  if (s.withInit)
    body << " init(%h : " << tensorType(ss) << ")";
  // The forward form that saves its chunk states, its other results unused.
  std::ostringstream prologue;
  if (s.savedStates) {
    std::vector<int64_t> cs = {s.B, s.H, s.L / s.chunk + 1, s.N, s.P};
    prologue << "  %ey = tensor.empty() : " << tensorType(xs)
             << "\n  %es = tensor.empty() : " << tensorType(ss)
             << "\n  %ecs = tensor.empty() : " << tensorType(cs)
             << "\n  %fy, %fs, %cs = mixer.ssd chunk_size(" << s.chunk
             << ") ins(%x, %la, %b, %c : " << tensorType(xs) << ", "
             << tensorType(las) << ", " << tensorType(bs) << ", "
             << tensorType(bs) << ")"
             << (s.withInit ? " init(%h : " + tensorType(ss) + ")" : "")
             << " outs(%ey, %es, %ecs : " << tensorType(xs) << ", "
             << tensorType(ss) << ", " << tensorType(cs) << ") -> "
             << tensorType(xs) << ", " << tensorType(ss) << ", "
             << tensorType(cs) << "\n";
    body << " chunk_states(%cs : " << tensorType(cs) << ")";
  }
  if (s.withDy)
    body << " dy(%dy : " << tensorType(xs) << ")";
  if (s.withDFinal)
    body << " d_final_state(%ds : " << tensorType(ss) << ")";
  std::vector<Buffer> got =
      runBackward(args, body.str(), runner, prologue.str());
  ASSERT_FALSE(got.empty());

  ref::SsdGradients g =
      ref::ssdGradients(x, la, b, c, s.withInit ? &init : nullptr,
                        s.withDy ? &dy : nullptr, s.withDFinal ? &dS : nullptr);
  std::vector<std::pair<const char *, const ref::Tensor *>> expected = {
      {"dx", &g.dx}, {"dlog_a", &g.dlogA}, {"db", &g.db}, {"dc", &g.dc}};
  if (s.withInit)
    expected.push_back({"dinit", &g.dinit});
  expectGradients(runner.label + "ssd_backward " + caseName(s), got, expected);
}

namespace {

class SsdBackwardAgainstReference : public ::testing::TestWithParam<SsdCase> {};

TEST_P(SsdBackwardAgainstReference, GradientsWithinTolerance) {
  ssdBackwardCase(GetParam(), pipelineRunner(GetParam().naive));
}

std::vector<SsdCase> ssdCases() {
  return {
      // L not a multiple of the chunk, G < H, everything present.
      {2, 100, 4, 8, 2, 16, 32, true, true, true},
      // One token.
      {1, 1, 2, 8, 1, 8, 16, true, true, true},
      // Without init, dy only, one group per head.
      {2, 64, 4, 16, 4, 8, 16, false, true, false},
      // One group for four heads, the final-state cotangent only.
      {1, 77, 4, 8, 1, 8, 16, true, false, true},
      // Several chunks, P != N.
      {1, 300, 2, 32, 1, 16, 64, false, true, true},
      // Extreme decays: the state kept (log_a near 0) or killed (near -10).
      {1, 200, 4, 8, 2, 8, 32, true, true, true, Decays::NearZero},
      {1, 200, 4, 8, 2, 8, 32, true, true, true, Decays::NearMinusTen},
      {1, 200, 4, 8, 2, 8, 32, true, true, false, Decays::NearMinusTen},
      // The naive (scalar loops) lowering of the scans it becomes.
      {1, 45, 4, 8, 2, 8, 16, true, true, true, Decays::Realistic, true},
      // The chunk states of the forward's chunk_states result.
      {2, 100, 4, 8, 2, 16, 32, true, true, true, Decays::Realistic, false,
       true},
      {1, 256, 2, 16, 1, 8, 64, false, true, false, Decays::NearMinusTen,
       false, true},
      {1, 7, 2, 8, 2, 8, 16, true, false, true, Decays::Realistic, false,
       true},
  };
}

INSTANTIATE_TEST_SUITE_P(ScanBackwardSsd, SsdBackwardAgainstReference,
                         ::testing::ValuesIn(ssdCases()),
                         [](const auto &info) { return caseName(info.param); });

//===----------------------------------------------------------------------===//
// linear_attention_backward
//===----------------------------------------------------------------------===//

std::string caseName(const LinearAttentionCase &c) {
  std::ostringstream os;
  os << "B" << c.B << "_L" << c.L << "_H" << c.H << "_Dk" << c.Dk << "_Dv"
     << c.Dv << "_Q" << c.chunk << "_W" << c.window
     << (c.withDecay ? "_decay" : "") << (c.withInit ? "_init" : "")
     << (c.withDFinal ? "_dfinal" : "")
     << (c.decays == Decays::NearZero       ? "_decay0"
         : c.decays == Decays::NearMinusTen ? "_decay10"
                                            : "")
     << (c.savedStates ? "_saved" : "");
  return os.str();
}

} // namespace

void mixer::test::linearAttentionBackwardCase(const LinearAttentionCase &s,
                                              const GradientRunner &runner) {
  const double scale = 0.25;
  ref::Rng rng(77);
  std::vector<int64_t> qs = {s.B, s.L, s.H, s.Dk}, vs = {s.B, s.L, s.H, s.Dv},
                       las = {s.B, s.L, s.H}, ss = {s.B, s.H, s.Dk, s.Dv};
  ref::Tensor q = rng.uniformTensor(qs, -1, 1);
  ref::Tensor k = rng.uniformTensor(qs, -1, 1);
  ref::Tensor v = rng.uniformTensor(vs, -1, 1);
  ref::Tensor ld = logDecays(rng, las, s.decays);
  ref::Tensor init = rng.uniformTensor(ss, -1, 1);
  ref::Tensor dout = rng.uniformTensor(vs, -1, 1);
  ref::Tensor dS = rng.uniformTensor(ss, -1, 1);

  std::vector<Arg> args = {{"q", rounded(q)}, {"k", rounded(k)},
                           {"v", rounded(v)}};
  if (s.withDecay)
    args.push_back({"ld", rounded(ld)});
  if (s.withInit)
    args.push_back({"h", rounded(init)});
  args.push_back({"do", rounded(dout)});
  if (s.withDFinal)
    args.push_back({"ds", rounded(dS)});
  for (auto shape : {qs, qs, vs})
    args.push_back({"o" + std::to_string(args.size()), outBuffer(shape), true});
  if (s.withDecay)
    args.push_back({"odld", outBuffer(las), true});
  if (s.withInit)
    args.push_back({"odh", outBuffer(ss), true});

  std::ostringstream body;
  body << "mixer.linear_attention_backward chunk_size(" << s.chunk
       << ") window(" << s.window << ") scale(" << scale << ") ins(%q, %k, %v : "
       << tensorType(qs) << ", " << tensorType(qs) << ", " << tensorType(vs)
       << ")";
  if (s.withDecay)
    body << " log_decay(%ld : " << tensorType(las) << ")";
  if (s.withInit)
    body << " init(%h : " << tensorType(ss) << ")";
  // The forward form that saves its chunk states, its other results unused.
  std::ostringstream prologue;
  if (s.savedStates) {
    std::vector<int64_t> cs = {s.B, s.H, s.L / s.chunk + 1, s.Dk, s.Dv};
    prologue << "  %eo = tensor.empty() : " << tensorType(vs)
             << "\n  %es = tensor.empty() : " << tensorType(ss)
             << "\n  %ecs = tensor.empty() : " << tensorType(cs)
             << "\n  %fo, %fs, %cs = mixer.linear_attention chunk_size("
             << s.chunk << ") scale(" << scale << ") ins(%q, %k, %v : "
             << tensorType(qs) << ", " << tensorType(qs) << ", "
             << tensorType(vs) << ")"
             << (s.withDecay ? " log_decay(%ld : " + tensorType(las) + ")"
                             : "")
             << (s.withInit ? " init(%h : " + tensorType(ss) + ")" : "")
             << " outs(%eo, %es, %ecs : " << tensorType(vs) << ", "
             << tensorType(ss) << ", " << tensorType(cs) << ") -> "
             << tensorType(vs) << ", " << tensorType(ss) << ", "
             << tensorType(cs) << "\n";
    body << " chunk_states(%cs : " << tensorType(cs) << ")";
  }
  body << " dout(%do : " << tensorType(vs) << ")";
  if (s.withDFinal)
    body << " d_final_state(%ds : " << tensorType(ss) << ")";
  std::vector<Buffer> got =
      runBackward(args, body.str(), runner, prologue.str());
  ASSERT_FALSE(got.empty());

  ref::LinearAttentionGradients g = ref::linearAttentionGradients(
      q, k, v, s.withDecay ? &ld : nullptr, s.withInit ? &init : nullptr,
      s.window, scale, &dout, s.withDFinal ? &dS : nullptr);
  std::vector<std::pair<const char *, const ref::Tensor *>> expected = {
      {"dq", &g.dq}, {"dk", &g.dk}, {"dv", &g.dv}};
  if (s.withDecay)
    expected.push_back({"dlog_decay", &g.dlogDecay});
  if (s.withInit)
    expected.push_back({"dinit", &g.dinit});
  expectGradients(runner.label + "linear_attention_backward " + caseName(s),
                  got, expected);
}

namespace {

class LinearAttentionBackwardAgainstReference
    : public ::testing::TestWithParam<LinearAttentionCase> {};

TEST_P(LinearAttentionBackwardAgainstReference, GradientsWithinTolerance) {
  linearAttentionBackwardCase(GetParam(), pipelineRunner(false));
}

std::vector<LinearAttentionCase> linearAttentionCases() {
  return {
      {2, 50, 2, 8, 16, 16, 0, true, true, true},
      {1, 37, 2, 8, 8, 16, 0, false, false, false},
      {1, 1, 2, 8, 8, 16, 0, true, true, true},
      {1, 130, 2, 16, 8, 64, 0, true, true, true, Decays::NearZero},
      {1, 130, 2, 16, 8, 64, 0, true, true, true, Decays::NearMinusTen},
      // Windows: shorter than the sequence, longer than it.
      {1, 60, 2, 8, 8, 16, 5, true, true, true},
      {2, 45, 2, 8, 16, 16, 16, false, true, false},
      {1, 10, 1, 4, 4, 4, 20, true, true, true},
      // The chunk states of the forward's chunk_states result.
      {2, 50, 2, 8, 16, 16, 0, true, true, true, Decays::Realistic, true},
      {1, 130, 2, 16, 8, 64, 0, true, false, false, Decays::NearMinusTen,
       true},
      {1, 7, 2, 8, 8, 16, 0, false, true, true, Decays::Realistic, true},
  };
}

INSTANTIATE_TEST_SUITE_P(ScanBackwardLinearAttention,
                         LinearAttentionBackwardAgainstReference,
                         ::testing::ValuesIn(linearAttentionCases()),
                         [](const auto &info) { return caseName(info.param); });

} // namespace
