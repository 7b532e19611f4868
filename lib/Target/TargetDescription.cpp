//===- TargetDescription.cpp - target descriptions as module attributes ---===//

#include "mixer/Target/TargetDescription.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Operation.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <tuple>

using namespace mlir;
using namespace mlir::mixer;

/// Every field of `t`, for comparisons.
static auto fieldsOf(const TargetDescription &t) {
  return std::tie(t.vectorWidth, t.vectorRegisters, t.l1CacheBytes,
                  t.l2CacheBytes, t.registerTileRows,
                  t.registerBlockAccumulators, t.kernelColumnBlock,
                  t.moeSlabRows, t.scanTimeBlock, t.scanChannelBlockLimit,
                  t.scanHeadBlockLimit, t.threads, t.parallelRowBlock,
                  t.tempMemorySpace, t.transposedStates, t.warpSize,
                  t.sharedMemoryBytes, t.threadsPerBlock, t.scanChunkLimit);
}

bool TargetDescription::operator==(const TargetDescription &other) const {
  return fieldsOf(*this) == fieldsOf(other);
}

TargetDescription mlir::mixer::getCpuTargetDescription(CpuVectorIsa isa) {
  // f32 lanes, vector registers, L1 and L2 bytes, in the order of
  // CpuVectorIsa: AVX-512 as on Zen 5, AVX2 as on Zen 3.
  struct Registers {
    int64_t lanes, count, l1, l2;
  };
  static constexpr Registers kByIsa[] = {
      /*SSE=*/{4, 16, 32 * 1024, 256 * 1024},
      /*AVX2=*/{8, 16, 32 * 1024, 512 * 1024},
      /*AVX512=*/{16, 32, 48 * 1024, 1024 * 1024}};
  const Registers &r = kByIsa[static_cast<int>(isa)];
  TargetDescription target;
  target.vectorWidth = r.lanes;
  target.vectorRegisters = r.count;
  target.l1CacheBytes = r.l1;
  target.l2CacheBytes = r.l2;
  // The most rows whose accumulators (two vectors per row) fit beside the
  // operands, up to 8: 6 rows with 16 registers (12 accumulators, more
  // than the 8 FMAs in flight that cover the latency of two FMA pipes), 8
  // with 32 (16 accumulators; 14 rows measured 1-2% slower on Zen 4).
  target.registerTileRows = std::min<int64_t>(target.gemmTileRows(), 8);
  target.registerBlockAccumulators = target.vectorRegisters * 3 / 4;
  return target;
}

namespace {
/// The entries of the attribute, one per field; `int` fields are i64.
struct Entry {
  StringLiteral name;
  int64_t TargetDescription::*field;
  /// Whether the value must be a power of two.
  bool powerOfTwo;
  /// Whether 0 is allowed beside the positive values (it means "none").
  bool zeroAllowed = false;
};
} // namespace

static constexpr Entry kIntEntries[] = {
    {"vector_width", &TargetDescription::vectorWidth, true},
    {"vector_registers", &TargetDescription::vectorRegisters, false},
    {"l1_cache_bytes", &TargetDescription::l1CacheBytes, false},
    {"l2_cache_bytes", &TargetDescription::l2CacheBytes, false},
    {"register_tile_rows", &TargetDescription::registerTileRows, false},
    {"register_block_accumulators",
     &TargetDescription::registerBlockAccumulators, false},
    {"kernel_column_block", &TargetDescription::kernelColumnBlock, false},
    {"moe_slab_rows", &TargetDescription::moeSlabRows, true},
    {"scan_time_block", &TargetDescription::scanTimeBlock, false},
    {"scan_channel_block_limit", &TargetDescription::scanChannelBlockLimit,
     true},
    {"scan_head_block_limit", &TargetDescription::scanHeadBlockLimit, true},
    {"parallel_row_block", &TargetDescription::parallelRowBlock, false},
    {"scan_chunk_limit", &TargetDescription::scanChunkLimit, false, true},
};

DictionaryAttr mlir::mixer::getTargetAttr(MLIRContext *context,
                                          const TargetDescription &target) {
  Builder b(context);
  SmallVector<NamedAttribute> entries;
  for (const Entry &entry : kIntEntries)
    entries.push_back(
        b.getNamedAttr(entry.name, b.getI64IntegerAttr(target.*entry.field)));
  // Unknown threads stay out: the attribute does not depend on the machine.
  if (target.threads > 0)
    entries.push_back(
        b.getNamedAttr("threads", b.getI64IntegerAttr(target.threads)));
  if (target.tempMemorySpace)
    entries.push_back(
        b.getNamedAttr("temp_memory_space", target.tempMemorySpace));
  entries.push_back(b.getNamedAttr("transposed_states",
                                   b.getBoolAttr(target.transposedStates)));
  if (target.warpSize)
    entries.push_back(
        b.getNamedAttr("warp_size", b.getI64IntegerAttr(*target.warpSize)));
  if (target.sharedMemoryBytes)
    entries.push_back(b.getNamedAttr(
        "shared_memory_bytes", b.getI64IntegerAttr(*target.sharedMemoryBytes)));
  if (target.threadsPerBlock)
    entries.push_back(b.getNamedAttr(
        "threads_per_block", b.getI64IntegerAttr(*target.threadsPerBlock)));
  return b.getDictionaryAttr(entries);
}

FailureOr<TargetDescription>
mlir::mixer::parseTargetAttr(DictionaryAttr attr,
                             function_ref<InFlightDiagnostic()> emitError) {
  TargetDescription target = getDefaultTargetDescription();
  auto readInt = [&](StringRef name, Attribute value, bool powerOfTwo,
                     bool zeroAllowed = false) -> FailureOr<int64_t> {
    auto integer = dyn_cast<IntegerAttr>(value);
    if (!integer || !integer.getType().isInteger(64))
      return emitError() << "'" << kTargetAttrName << "' entry '" << name
                         << "' must be an i64, got " << value,
             failure();
    int64_t v = integer.getInt();
    if (zeroAllowed && v == 0)
      return v;
    if (v <= 0 || (powerOfTwo && !llvm::isPowerOf2_64(v)))
      return emitError() << "'" << kTargetAttrName << "' entry '" << name
                         << "' must be a positive "
                         << (powerOfTwo ? "power of two" : "integer")
                         << (zeroAllowed ? " or 0" : "") << ", got " << v,
             failure();
    return v;
  };
  for (NamedAttribute named : attr) {
    StringRef name = named.getName().strref();
    const Entry *entry = llvm::find_if(
        kIntEntries, [&](const Entry &e) { return e.name == name; });
    if (entry != std::end(kIntEntries)) {
      FailureOr<int64_t> v = readInt(name, named.getValue(),
                                     entry->powerOfTwo, entry->zeroAllowed);
      if (failed(v))
        return failure();
      target.*entry->field = *v;
    } else if (name == "threads") {
      FailureOr<int64_t> v = readInt(name, named.getValue(), false);
      if (failed(v))
        return failure();
      target.threads = *v;
    } else if (name == "temp_memory_space") {
      target.tempMemorySpace = named.getValue();
    } else if (name == "transposed_states") {
      auto flag = dyn_cast<BoolAttr>(named.getValue());
      if (!flag)
        return emitError() << "'" << kTargetAttrName
                           << "' entry 'transposed_states' must be a bool",
               failure();
      target.transposedStates = flag.getValue();
    } else if (name == "warp_size" || name == "shared_memory_bytes" ||
               name == "threads_per_block") {
      FailureOr<int64_t> v = readInt(name, named.getValue(), false);
      if (failed(v))
        return failure();
      (name == "warp_size"           ? target.warpSize
       : name == "threads_per_block" ? target.threadsPerBlock
                                     : target.sharedMemoryBytes) = *v;
    } else {
      return emitError() << "'" << kTargetAttrName << "' has no entry '" << name
                         << "'",
             failure();
    }
  }
  return target;
}

FailureOr<TargetDescription> mlir::mixer::overrideTargetEntries(
    MLIRContext *context, const TargetDescription &target, StringRef overrides,
    function_ref<InFlightDiagnostic()> emitError) {
  Builder b(context);
  NamedAttrList entries(getTargetAttr(context, target));
  SmallVector<StringRef> items;
  overrides.split(items, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef item : items) {
    auto [name, text] = item.split('=');
    name = name.trim();
    text = text.trim();
    int64_t number;
    Attribute value;
    if (text == "true" || text == "false")
      value = b.getBoolAttr(text == "true");
    else if (!text.getAsInteger(10, number))
      value = b.getI64IntegerAttr(number);
    else
      return emitError() << "target override '" << item
                         << "' is not name=integer (or name=true|false)",
             failure();
    entries.set(name, value);
  }
  return parseTargetAttr(entries.getDictionary(context), emitError);
}

void mlir::mixer::setTargetDescription(Operation *op,
                                       const TargetDescription &target) {
  op->setAttr(kTargetAttrName, getTargetAttr(op->getContext(), target));
}

/// The closest of `op` and its ancestors with a `mixer.target`, or null.
static Operation *getTargetHolder(Operation *op) {
  for (; op; op = op->getParentOp())
    if (op->hasAttr(kTargetAttrName))
      return op;
  return nullptr;
}

FailureOr<TargetDescription> mlir::mixer::getTargetDescription(Operation *op) {
  Operation *holder = getTargetHolder(op);
  if (!holder)
    return getDefaultTargetDescription();
  auto dict = dyn_cast<DictionaryAttr>(holder->getAttr(kTargetAttrName));
  if (!dict)
    return holder->emitError()
               << "'" << kTargetAttrName << "' must be a dictionary",
           failure();
  return parseTargetAttr(dict, [&] { return holder->emitError(); });
}

TargetDescription mlir::mixer::lookupTargetDescription(Operation *op) {
  Operation *holder = getTargetHolder(op);
  auto dict = holder
                  ? dyn_cast<DictionaryAttr>(holder->getAttr(kTargetAttrName))
                  : DictionaryAttr();
  if (!dict)
    return getDefaultTargetDescription();
  FailureOr<TargetDescription> target = parseTargetAttr(dict, [&] {
    // Diagnostics without a handler: the pass reported them already.
    return InFlightDiagnostic();
  });
  return succeeded(target) ? *target : getDefaultTargetDescription();
}
