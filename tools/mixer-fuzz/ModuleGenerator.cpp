//===- ModuleGenerator.cpp - random small modules of one mixer op ---------===//

#include "ModuleGenerator.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <cstdint>
#include <map>
#include <vector>

using namespace mlir::mixer::fuzz;

namespace {

/// A tensor operand or destination: its SSA name and its dimensions, each a
/// symbol of the op description ("B", "L", ...) or a product "T*k".
struct Operand {
  std::string name;
  std::vector<std::string> dims;
  std::string element;
  /// Drawn once (a dimension may be dynamic), used everywhere.
  std::string type;
};

/// Draws sizes for symbols and writes one module.
class Generator {
public:
  explicit Generator(FuzzedDataProvider &bytes) : bytes(bytes) {}

  std::string generate();

private:
  /// A size in [lo, hi], now and then 0 (empty tensors are legal).
  int64_t size(int64_t lo, int64_t hi) {
    // Out of bytes, FuzzedDataProvider yields the low end of each range:
    // the unusual choices sit at the high end.
    if (bytes.ConsumeIntegralInRange<int>(0, 15) == 15)
      return 0;
    return bytes.ConsumeIntegralInRange<int64_t>(lo, hi);
  }
  bool flag() { return bytes.ConsumeBool(); }
  /// A chunk size, mostly in range, sometimes 0 or negative.
  int64_t chunkSize() {
    if (bytes.ConsumeIntegralInRange<int>(0, 31) == 31)
      return bytes.ConsumeIntegralInRange<int64_t>(-2, 0);
    return bytes.ConsumeIntegralInRange<int64_t>(1, 20);
  }
  std::string scale() {
    static const char *values[] = {"1.000000e+00", "1.250000e-01",
                                   "-2.500000e+00", "0.000000e+00"};
    return values[bytes.ConsumeIntegralInRange<int>(0, 3)];
  }

  std::string typeOf(const Operand &operand);
  Operand make(std::string name, std::vector<std::string> dims,
               std::string element) {
    Operand operand{std::move(name), std::move(dims), std::move(element), ""};
    operand.type = typeOf(operand);
    return operand;
  }
  void input(std::string name, std::vector<std::string> dims,
             std::string element = "f32") {
    inputs.push_back(make(std::move(name), std::move(dims), element));
  }
  void output(std::string name, std::vector<std::string> dims,
              std::string element = "f32") {
    outputs.push_back(make(std::move(name), std::move(dims), element));
  }
  /// "%a, %b : T1, T2" of the given operands.
  std::string list(const std::vector<const Operand *> &operands);
  /// `keyword(%a : T)` of the input named `name`, if it was added.
  std::string optional(const std::string &keyword, const std::string &name);

  /// The sizes and the q, k, v inputs of linear_attention and
  /// gated_delta_rule.
  void attentionInputs();

  std::string ssd();
  std::string selectiveScan();
  std::string linearAttention();
  std::string gatedDeltaRule();
  std::string kernelMv();
  std::string kernelLse();
  std::string sinkhorn();
  std::string groupedMatmul();
  std::string groupedSwiglu();
  std::string topkRouter();
  std::string moeDispatch();
  std::string moeCombine();

  FuzzedDataProvider &bytes;
  std::map<std::string, int64_t> sizes;
  std::vector<Operand> inputs, outputs;
};

} // namespace

std::string Generator::typeOf(const Operand &operand) {
  std::string type = "tensor<";
  for (const std::string &dim : operand.dims) {
    int64_t value = 1;
    for (llvm::StringRef factor : llvm::split(dim, '*'))
      value *= sizes.at(factor.str());
    // A dimension is sometimes dynamic, in one operand only or in all.
    bool dynamic = bytes.ConsumeIntegralInRange<int>(0, 11) == 11;
    type += dynamic ? std::string("?") : std::to_string(value);
    type += "x";
  }
  return type + operand.element + ">";
}

std::string Generator::list(const std::vector<const Operand *> &operands) {
  std::string names, types;
  for (const Operand *operand : operands) {
    if (!names.empty()) {
      names += ", ";
      types += ", ";
    }
    names += "%" + operand->name;
    types += operand->type;
  }
  return names + " : " + types;
}

std::string Generator::optional(const std::string &keyword,
                                const std::string &name) {
  for (const Operand &operand : inputs)
    if (operand.name == name)
      return " " + keyword + "(" + list({&operand}) + ")";
  return "";
}

/// The `ins(...)` list of the first `count` inputs.
#define INS(count)                                                             \
  [&] {                                                                        \
    std::vector<const Operand *> ops;                                          \
    for (size_t i = 0; i < (count); ++i)                                       \
      ops.push_back(&inputs[i]);                                               \
    return " ins(" + list(ops) + ")";                                          \
  }()

std::string Generator::ssd() {
  sizes = {{"B", size(1, 2)},
           {"L", size(1, 20)},
           {"G", size(1, 2)},
           {"P", size(1, 8)},
           {"N", size(1, 8)}};
  sizes["H"] = sizes["G"] * bytes.ConsumeIntegralInRange<int64_t>(1, 3);
  input("x", {"B", "L", "H", "P"});
  input("log_a", {"B", "L", "H"});
  input("b", {"B", "L", "G", "N"});
  input("c", {"B", "L", "G", "N"});
  if (flag())
    input("init", {"B", "H", "P", "N"});
  output("y0", {"B", "L", "H", "P"});
  output("s0", {"B", "H", "P", "N"});
  return "mixer.ssd chunk_size(" + std::to_string(chunkSize()) + ")" + INS(4) +
         optional("init", "init");
}

std::string Generator::selectiveScan() {
  sizes = {{"B", size(1, 2)},
           {"L", size(1, 20)},
           {"G", size(1, 2)},
           {"N", size(1, 8)}};
  sizes["D"] = sizes["G"] * bytes.ConsumeIntegralInRange<int64_t>(1, 4);
  input("u", {"B", "L", "D"});
  input("delta", {"B", "L", "D"});
  input("A", {"D", "N"});
  input("b", {"B", "L", "G", "N"});
  input("c", {"B", "L", "G", "N"});
  if (flag())
    input("D_skip", {"D"});
  if (flag())
    input("z", {"B", "L", "D"});
  if (flag())
    input("delta_bias", {"D"});
  if (flag())
    input("init", {"B", "D", "N"});
  output("y0", {"B", "L", "D"});
  output("s0", {"B", "D", "N"});
  std::string softplus = flag() ? " delta_softplus" : "";
  return "mixer.selective_scan" + softplus + INS(5) +
         optional("D_skip", "D_skip") + optional("z", "z") +
         optional("delta_bias", "delta_bias") + optional("init", "init");
}

void Generator::attentionInputs() {
  sizes = {{"B", size(1, 2)},
           {"L", size(1, 20)},
           {"H", size(1, 3)},
           {"Dk", size(1, 8)},
           {"Dv", size(1, 8)}};
  input("q", {"B", "L", "H", "Dk"});
  input("k", {"B", "L", "H", "Dk"});
  input("v", {"B", "L", "H", "Dv"});
}

std::string Generator::linearAttention() {
  attentionInputs();
  if (flag())
    input("log_decay", {"B", "L", "H"});
  if (flag())
    input("init", {"B", "H", "Dk", "Dv"});
  output("o0", {"B", "L", "H", "Dv"});
  output("s0", {"B", "H", "Dk", "Dv"});
  std::string op =
      "mixer.linear_attention chunk_size(" + std::to_string(chunkSize()) + ")";
  if (flag())
    op += " window(" +
          std::to_string(bytes.ConsumeIntegralInRange<int64_t>(0, 25) % 25 -
                         (bytes.ConsumeIntegralInRange<int>(0, 15) == 15)) +
          ")";
  if (flag())
    op += " scale(" + scale() + ")";
  return op + INS(3) + optional("log_decay", "log_decay") +
         optional("init", "init");
}

std::string Generator::gatedDeltaRule() {
  attentionInputs();
  input("g", {"B", "L", "H"});
  input("beta", {"B", "L", "H"});
  if (flag())
    input("init", {"B", "H", "Dk", "Dv"});
  output("o0", {"B", "L", "H", "Dv"});
  output("s0", {"B", "H", "Dk", "Dv"});
  std::string op =
      "mixer.gated_delta_rule chunk_size(" + std::to_string(chunkSize()) + ")";
  if (flag())
    op += " scale(" + scale() + ")";
  return op + INS(5) + optional("init", "init");
}

static const char *kernelKinds[] = {"gaussian", "laplacian",
                                    "matern32", "inverse_multiquadric",
                                    "linear",   "sqeuclidean"};

/// Dimensions with the optional batch dimension in front.
static std::vector<std::string> batched(bool batch,
                                        std::vector<std::string> dims) {
  if (batch)
    dims.insert(dims.begin(), "Bt");
  return dims;
}

std::string Generator::kernelMv() {
  bool batch = flag();
  sizes = {{"Bt", size(1, 3)},
           {"N", size(1, 40)},
           {"M", size(1, 40)},
           {"D", size(1, 5)},
           {"C", size(1, 9)}};
  input("x", batched(batch, {"N", "D"}));
  input("y", batched(batch, {"M", "D"}));
  input("v", batched(batch, {"M", "C"}));
  input("h", {});
  output("out0", batched(batch, {"N", "C"}));
  // sqeuclidean is a cost: the verifier must reject it here.
  std::string kind = kernelKinds[bytes.ConsumeIntegralInRange<int>(0, 5)];
  return "mixer.kernel_mv kernel(" + kind + ")" + INS(4);
}

std::string Generator::kernelLse() {
  bool batch = flag();
  sizes = {{"Bt", size(1, 3)},
           {"N", size(1, 40)},
           {"M", size(1, 40)},
           {"D", size(1, 5)}};
  input("x", batched(batch, {"N", "D"}));
  input("y", batched(batch, {"M", "D"}));
  input("eps", {});
  if (flag())
    input("g", batched(batch, {"M"}));
  output("out0", batched(batch, {"N"}));
  std::string kind = kernelKinds[bytes.ConsumeIntegralInRange<int>(0, 5)];
  return "mixer.kernel_lse kernel(" + kind + ")" + INS(3) + optional("g", "g");
}

std::string Generator::sinkhorn() {
  sizes = {{"N", size(1, 24)}, {"M", size(1, 24)}, {"D", size(1, 4)}};
  input("x", {"N", "D"});
  input("y", {"M", "D"});
  input("log_a", {"N"});
  input("log_b", {"M"});
  input("eps", {});
  output("f0", {"N"});
  output("g0", {"M"});
  output("cost0", {});
  std::string kind = kernelKinds[bytes.ConsumeIntegralInRange<int>(0, 5)];
  int64_t iterations = bytes.ConsumeIntegralInRange<int64_t>(1, 5) % 5;
  return "mixer.sinkhorn cost(" + kind + ") iterations(" +
         std::to_string(iterations) + ")" + INS(5);
}

std::string Generator::groupedMatmul() {
  sizes = {{"T", size(1, 24)},
           {"K", size(1, 20)},
           {"E", size(1, 5)},
           {"N", size(1, 20)}};
  input("lhs", {"T", "K"});
  input("rhs", {"E", "K", "N"});
  input("sizes", {"E"}, flag() ? "i32" : "i64");
  output("out0", {"T", "N"});
  return "mixer.grouped_matmul" + INS(3);
}

std::string Generator::groupedSwiglu() {
  sizes = {{"T", size(1, 24)},
           {"K", size(1, 20)},
           {"E", size(1, 5)},
           {"F", size(1, 20)}};
  input("x", {"T", "K"});
  input("w_gate", {"E", "K", "F"});
  input("w_up", {"E", "K", "F"});
  input("sizes", {"E"}, flag() ? "i32" : "i64");
  output("out0", {"T", "F"});
  return "mixer.grouped_swiglu" + INS(4);
}

std::string Generator::topkRouter() {
  sizes = {{"T", size(1, 24)}, {"E", size(1, 9)}};
  // k is sometimes out of range (0 or above E) for the verifier.
  sizes["k"] = bytes.ConsumeIntegralInRange<int64_t>(1, 11) % 11;
  input("logits", {"T", "E"});
  output("w0", {"T", "k"});
  output("ids0", {"T", "k"}, "i32");
  std::string normalize = flag() ? " normalize" : "";
  return "mixer.topk_router k(" + std::to_string(sizes["k"]) + ")" + normalize +
         INS(1);
}

std::string Generator::moeDispatch() {
  sizes = {{"T", size(1, 16)},
           {"K", size(1, 12)},
           {"k", size(1, 3)},
           {"E", bytes.ConsumeIntegralInRange<int64_t>(1, 7) % 7}};
  input("x", {"T", "K"});
  input("ids", {"T", "k"}, "i32");
  output("sorted0", {"T*k", "K"});
  output("sizes0", {"E"}, "i64");
  output("perm0", {"T*k"}, "i32");
  return "mixer.moe_dispatch num_experts(" + std::to_string(sizes["E"]) + ")" +
         INS(2);
}

std::string Generator::moeCombine() {
  sizes = {{"T", size(1, 16)}, {"k", size(1, 3)}, {"N", size(1, 12)}};
  input("expert_out", {"T*k", "N"});
  input("perm", {"T*k"}, "i32");
  input("weights", {"T", "k"});
  output("out0", {"T", "N"});
  return "mixer.moe_combine" + INS(3);
}

#undef INS

std::string Generator::generate() {
  using Kind = std::string (Generator::*)();
  static const Kind kinds[] = {&Generator::ssd,
                               &Generator::selectiveScan,
                               &Generator::linearAttention,
                               &Generator::gatedDeltaRule,
                               &Generator::kernelMv,
                               &Generator::kernelLse,
                               &Generator::sinkhorn,
                               &Generator::groupedMatmul,
                               &Generator::groupedSwiglu,
                               &Generator::topkRouter,
                               &Generator::moeDispatch,
                               &Generator::moeCombine};
  Kind kind =
      kinds[bytes.ConsumeIntegralInRange<size_t>(0, std::size(kinds) - 1)];
  std::string op = (this->*kind)();

  std::string outNames, outTypes, signature;
  for (const Operand &in : inputs)
    signature += "%" + in.name + ": " + in.type + ", ";
  for (auto [i, out] : llvm::enumerate(outputs)) {
    outNames += (i ? ", %" : "%") + out.name;
    outTypes += (i ? ", " : "") + out.type;
    signature += (i ? ", %" : "%") + out.name + ": " + out.type +
                 " {bufferization.writable = true}";
  }
  op += " outs(" + outNames + " : " + outTypes + ") -> " + outTypes;

  std::string results;
  for (size_t i = 0; i < outputs.size(); ++i)
    results += (i ? ", %r#" : "%r#") + std::to_string(i);
  std::string text = "func.func @f(" + signature + ") -> (" + outTypes +
                     ") {\n  %r:" + std::to_string(outputs.size()) + " = " +
                     op + "\n  return " + results + " : " + outTypes + "\n}\n";
  return text;
}

std::string mlir::mixer::fuzz::generateModule(FuzzedDataProvider &bytes) {
  return Generator(bytes).generate();
}
