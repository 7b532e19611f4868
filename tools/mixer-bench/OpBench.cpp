//===- OpBench.cpp - shapes, buffers and text helpers of the families -----===//
//
// Plain C++ shared by every family; the list of families is at the end.
//
//===----------------------------------------------------------------------===//

#include "OpBench.h"
#include "HostMemory.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace mixer::bench;
namespace mref = ::mixer::ref;

//===----------------------------------------------------------------------===//
// Shape
//===----------------------------------------------------------------------===//

int64_t Shape::operator[](const std::string &name) const {
  for (const auto &[key, value] : dims)
    if (key == name)
      return value;
  std::fprintf(stderr, "mixer-bench: the shape '%s' has no dimension '%s'\n",
               str().c_str(), name.c_str());
  std::abort();
}

bool Shape::has(const std::string &flag) const {
  return std::find(flags.begin(), flags.end(), flag) != flags.end();
}

std::string Shape::str() const {
  std::string out;
  for (const auto &[key, value] : dims)
    out += (out.empty() ? "" : " ") + key + "=" + std::to_string(value);
  for (const std::string &flag : flags)
    out += (out.empty() ? "" : " ") + flag;
  return out;
}

Case mixer::bench::makeCase(
    const std::string &name, std::vector<std::pair<std::string, int64_t>> dims,
    const std::vector<std::pair<std::string, bool>> &flags) {
  Case c{name, {std::move(dims), {}}};
  for (const auto &[flag, on] : flags)
    if (on)
      c.shape.flags.push_back(flag);
  return c;
}

std::string OpBench::torchCase(const Case &c) const {
  std::string out = c.name + ":";
  bool first = true;
  for (const auto &[key, value] : c.shape.dims) {
    out += (first ? "" : ",") + key + "=" + std::to_string(value);
    first = false;
  }
  for (const std::string &flag : c.shape.flags) {
    out += (first ? "" : ",") + flag;
    first = false;
  }
  return out;
}

//===----------------------------------------------------------------------===//
// Buffer and Instance
//===----------------------------------------------------------------------===//

static size_t elementBytes(ElementType type) {
  return type == ElementType::I64 ? 8 : 4;
}

Buffer::Buffer(ElementType type, std::vector<int64_t> shapeIn)
    : type(type), shape(std::move(shapeIn)) {
  int64_t n = numel();
  size_t bytes = std::max<int64_t>(n, 1) * elementBytes(type);
  data = allocateHostBuffer(bytes);
  if (!data) {
    std::fprintf(stderr,
                 "mixer-bench: out of memory for a buffer of %zu bytes\n",
                 bytes);
    std::exit(1);
  }
  std::memset(data, 0, bytes);
  int64_t rank = shape.size();
  descriptor.assign(3 + 2 * rank, 0);
  descriptor[0] = reinterpret_cast<int64_t>(data);
  descriptor[1] = reinterpret_cast<int64_t>(data);
  int64_t stride = 1;
  for (int64_t i = rank - 1; i >= 0; --i) {
    descriptor[3 + i] = shape[i];
    descriptor[3 + rank + i] = stride;
    stride *= shape[i];
  }
}

Buffer::~Buffer() { std::free(data); }

int64_t Buffer::numel() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

double Buffer::at(int64_t i) const {
  switch (type) {
  case ElementType::F32:
    return f32()[i];
  case ElementType::I32:
    return i32()[i];
  case ElementType::I64:
    return double(i64()[i]);
  }
  return 0;
}

mref::Tensor Buffer::toTensor() const {
  mref::Tensor t(shape);
  for (int64_t i = 0, e = numel(); i < e; ++i)
    t[i] = at(i);
  return t;
}

static thread_local bool referenceWantedHere = true;

bool Instance::referenceWanted() { return referenceWantedHere; }

ReferenceScope::ReferenceScope(bool wanted) : previous(referenceWantedHere) {
  referenceWantedHere = wanted;
}

ReferenceScope::~ReferenceScope() { referenceWantedHere = previous; }

Buffer &Instance::arg(std::vector<int64_t> shape, ElementType type) {
  buffers.push_back(std::make_unique<Buffer>(type, std::move(shape)));
  args.push_back(buffers.back()->desc());
  return *buffers.back();
}

mref::Tensor Instance::uniform(std::vector<int64_t> shape, mref::Rng &rng,
                               double lo, double hi) {
  Buffer &b = arg(std::move(shape));
  for (int64_t i = 0, e = b.numel(); i < e; ++i)
    b.f32()[i] = static_cast<float>(rng.uniform(lo, hi));
  return mref::fromFloats(b.shape, b.f32());
}

void Instance::expect(const Buffer &out, mref::Tensor expected) {
  this->expected.push_back({&out, std::move(expected)});
}

double Instance::relativeError() const {
  double maxDiff = 0, maxRef = 0;
  for (const auto &[out, ref] : expected)
    for (int64_t i = 0, e = ref.numel(); i < e; ++i) {
      double d = std::fabs(out->at(i) - ref[i]);
      if (!std::isfinite(d))
        return INFINITY;
      maxDiff = std::max(maxDiff, d);
      maxRef = std::max(maxRef, std::fabs(ref[i]));
    }
  double error = maxRef > 0 ? maxDiff / maxRef : maxDiff;
  if (exact && !exact())
    error = std::max(error, 1.0);
  return error;
}

std::vector<int64_t> mixer::bench::moeGroupSizes(int64_t tokens,
                                                 int64_t experts) {
  std::vector<int64_t> weights, sizes;
  int64_t total = 0, sum = 0;
  for (int64_t e = 0; e < experts; ++e) {
    weights.push_back(1 + (5 * e) % experts);
    total += weights.back();
  }
  for (int64_t w : weights) {
    sizes.push_back(tokens * w / total);
    sum += sizes.back();
  }
  sizes.back() += tokens - sum;
  return sizes;
}

std::vector<int64_t> mixer::bench::groupSizesArg(Instance &in, int64_t tokens,
                                                 int64_t experts) {
  std::vector<int64_t> sizes = moeGroupSizes(tokens, experts);
  Buffer &buffer = in.arg({experts}, ElementType::I64);
  std::copy(sizes.begin(), sizes.end(), buffer.i64());
  return sizes;
}

std::vector<int64_t> mixer::bench::groupSizesOf(const Buffer &sizes) {
  return std::vector<int64_t>(sizes.i64(), sizes.i64() + sizes.numel());
}

//===----------------------------------------------------------------------===//
// MLIR text
//===----------------------------------------------------------------------===//

std::string mixer::bench::floatLiteral(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.9e", double(float(v)));
  return buffer;
}

const char *const mixer::bench::kWritable = " {bufferization.writable = true}";

std::string mixer::bench::tensorType(const std::vector<int64_t> &dims,
                                     const std::string &elem) {
  std::string str = "tensor<";
  for (int64_t d : dims)
    str += std::to_string(d) + "x";
  return str + elem + ">";
}

std::string mixer::bench::operandList(
    const std::vector<std::pair<std::string, std::string>> &operands) {
  std::string names, types;
  for (const auto &[name, type] : operands) {
    names += (names.empty() ? "%" : ", %") + name;
    types += (types.empty() ? "" : ", ") + type;
  }
  return names + " : " + types;
}

std::string mixer::bench::funcModule(
    const std::string &name,
    const std::vector<std::pair<std::string, std::string>> &inputs,
    const std::vector<std::pair<std::string, std::string>> &outputs,
    const std::string &body, const std::vector<std::string> &results) {
  std::string out = "func.func @" + name + "(";
  bool first = true;
  for (const auto &[arg, type] : inputs) {
    out += (first ? "%" : ", %") + arg + ": " + type;
    first = false;
  }
  for (const auto &[arg, type] : outputs) {
    out += (first ? "%" : ", %") + arg + ": " + type + kWritable;
    first = false;
  }
  std::string types;
  for (const auto &[arg, type] : outputs)
    types += (types.empty() ? "" : ", ") + type;
  out += ") -> (" + types + ") {\n  " + body + "\n  return ";
  for (size_t i = 0; i < results.size(); ++i)
    out += (i ? ", %" : "%") + results[i];
  out += " : " + types + "\n}\n";
  return out;
}

std::string mixer::bench::scanModule(
    const std::string &op, const std::string &attrs,
    std::vector<std::pair<std::string, std::string>> inputs,
    const std::vector<OptionalOperand> &optional, const std::string &out,
    const std::string &outType, const std::string &stateType) {
  std::string body = "%" + out + ", %s = mixer." + op + " " + attrs + "ins(" +
                     operandList(inputs) + ")";
  for (const OptionalOperand &operand : optional) {
    inputs.push_back({operand.name, operand.type});
    body += " " + operand.keyword + "(%" + operand.name + " : " + operand.type +
            ")";
  }
  std::vector<std::pair<std::string, std::string>> outs = {{out + "0", outType},
                                                           {"s0", stateType}};
  body += " outs(" + operandList(outs) + ") -> " + outType + ", " + stateType;
  return funcModule(op, inputs, outs, body, {out, "s"});
}

//===----------------------------------------------------------------------===//
// The families
//===----------------------------------------------------------------------===//

bool ScanBench::inSuite(const std::string &suite) const {
  return suite == "cpu" || suite == "scans" || suite == op();
}

void ScanBench::expectScan(Instance &in, const Buffer &out, const Buffer &state,
                           mref::ScanResult expected) {
  in.expect(out, std::move(expected.out));
  in.expect(state, std::move(expected.finalState));
}

double ScanBench::inverseSqrtScale(int64_t dk) {
  return double(float(1.0 / std::sqrt(double(dk))));
}

std::vector<std::unique_ptr<OpBench>> mixer::bench::allFamilies() {
  std::vector<std::unique_ptr<OpBench>> families;
  families.push_back(createSsdBench());
  families.push_back(createLinearAttentionBench());
  families.push_back(createSelectiveScanBench());
  families.push_back(createGatedDeltaRuleBench());
  families.push_back(createKernelLseBench());
  families.push_back(createKernelMvBench());
  families.push_back(createTransportCostBench());
  families.push_back(createSinkhornBench());
  families.push_back(createGroupedMatmulBench());
  families.push_back(createGroupedSwigluBench());
  families.push_back(createTopkRouterBench());
  families.push_back(createMoeDispatchBench());
  families.push_back(createMoeCombineBench());
  return families;
}
