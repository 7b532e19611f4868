//===- CHeader.cpp - the C header of a compiled module --------------------===//

#include "mixer/Execution/CHeader.h"

#include "mixer/Execution/Signature.h"

#include "mlir/AsmParser/AsmParserState.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"

#include <set>

using namespace mlir;
using namespace mlir::mixer;

static bool isCIdentifier(StringRef name) {
  static const llvm::StringSet<> keywords = {
      "auto",     "break",    "case",     "char",   "const",   "continue",
      "default",  "do",       "double",   "else",   "enum",    "extern",
      "float",    "for",      "goto",     "if",     "inline",  "int",
      "long",     "register", "restrict", "return", "short",   "signed",
      "sizeof",   "static",   "struct",   "switch", "typedef", "union",
      "unsigned", "void",     "volatile", "while",  "bool",    "true",
      "false"};
  if (name.empty() || llvm::isDigit(name.front()) || keywords.contains(name))
    return false;
  return llvm::all_of(name,
                      [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

/// "mixer_memref_f32_4d".
static std::string getDescriptorName(ElementKind kind, int64_t rank) {
  return ("mixer_memref_" + getElementKindName(kind) + "_" + Twine(rank) + "d")
      .str();
}

/// The descriptor struct of one (element type, rank) and its fill helper,
/// guarded so that several generated headers can be included together.
static void emitDescriptor(raw_ostream &os, ElementKind kind, int64_t rank) {
  std::string name = getDescriptorName(kind, rank);
  std::string macro = StringRef(name).upper() + "_DEFINED";
  StringRef cType = getCTypeName(kind);
  os << "#ifndef " << macro << "\n#define " << macro << "\n";
  os << "typedef struct {\n  " << cType << " *allocated, *aligned;\n"
     << "  int64_t offset";
  if (rank > 0)
    os << ", sizes[" << rank << "], strides[" << rank << "]";
  os << ";\n} " << name << ";\n\n";

  os << "/* A descriptor of the dense row-major array `data`";
  if (rank > 0) {
    os << " of sizes ";
    for (int64_t i = 0; i < rank; ++i)
      os << (i ? " x s" : "s") << i;
  }
  os << ". */\nstatic inline " << name << " " << name << "_make(" << cType
     << " *data";
  for (int64_t i = 0; i < rank; ++i)
    os << ", int64_t s" << i;
  os << ") {\n  " << name << " m;\n  m.allocated = data;\n  m.aligned = data;\n"
     << "  m.offset = 0;\n";
  // Row-major: the last dimension is contiguous.
  for (int64_t i = 0; i < rank; ++i)
    os << "  m.sizes[" << i << "] = s" << i << ";\n";
  for (int64_t i = rank - 1; i >= 0; --i) {
    os << "  m.strides[" << i << "] = ";
    if (i == rank - 1)
      os << "1";
    else
      os << "m.strides[" << i + 1 << "] * s" << i + 1;
    os << ";\n";
  }
  os << "  return m;\n}\n#endif\n\n";
}

/// "[64, ?, 8]" or "scalar".
static std::string describeArgument(const ArgumentInfo &arg) {
  std::string s = getElementKindName(arg.element).str();
  if (!arg.isTensor)
    return s + " scalar";
  s += " [";
  llvm::raw_string_ostream os(s);
  llvm::interleave(
      arg.shape,
      [&](int64_t size) {
        if (ShapedType::isDynamic(size))
          os << "?";
        else
          os << size;
      },
      [&] { os << ", "; });
  os << "]";
  return s;
}

/// The C names of the arguments: the given ones when they are distinct C
/// identifiers, in0.../out0... otherwise.
static SmallVector<std::string>
getParameterNames(const FunctionSignature &sig, const CHeaderOptions &options) {
  auto it = options.argumentNames.find(sig.name);
  if (it != options.argumentNames.end() &&
      it->second.size() == sig.arguments.size()) {
    llvm::StringSet<> seen;
    bool usable = llvm::all_of(it->second, [&](const std::string &name) {
      return isCIdentifier(name) && seen.insert(name).second &&
             !StringRef(name).starts_with("mixer_");
    });
    if (usable)
      return it->second;
  }
  SmallVector<std::string> names;
  unsigned inputs = 0, outputs = 0;
  for (const ArgumentInfo &arg : sig.arguments)
    names.push_back(arg.isOutput ? "out" + std::to_string(outputs++)
                                 : "in" + std::to_string(inputs++));
  return names;
}

static const char *const kAbiComment = R"(/*
 * The C ABI of every function below:
 *
 * - Arguments come in the order of the MLIR function: its inputs, then one
 *   output per result. A tensor is passed as a pointer to a memref
 *   descriptor (the mixer_memref_* types below); a scalar by value.
 * - Results are written in place into the output tensors; the functions
 *   return nothing and keep no pointer after they return.
 * - The caller owns all memory: it allocates every input and output tensor
 *   and frees it after the call. Outputs must not overlap inputs or each
 *   other.
 * - Tensors are dense and row-major: fill descriptors with the
 *   mixer_memref_*_make helpers (allocated = aligned = data, offset 0).
 * - Sizes must equal the static sizes listed with each function; a `?`
 *   dimension may take any size at run time, consistent across arguments as
 *   the function's ops require.
 * - Unless compiled with runtime-checks=false, the code checks before each
 *   op what the compiler could not: `?` sizes that must agree, indices and
 *   group sizes in range, eps and bandwidths > 0, log-decays <= 0. A failed
 *   check skips the op (its outputs are not written) and records a message:
 *   call mixerRuntimeClearCheckFailure() before a call and
 *   mixerRuntimeGetCheckFailure() after it (null: every check held), and
 *   link libMixerRuntime.a from mixer's build.
 * - Parallel loops run on the LLVM OpenMP runtime and some math on libm:
 *   link with clang's -fopenmp (or -lomp) and -lm. The thread count is
 *   OMP_NUM_THREADS unless fixed at compile time (--num-threads).
)";

/// The functions of include/mixer/Runtime/RuntimeChecks.h, under its guard.
static const char *const kRuntimeDeclarations = R"(#ifndef MIXER_RUNTIME_RUNTIMECHECKS_H
#define MIXER_RUNTIME_RUNTIMECHECKS_H
/* The first failed run-time check on this thread since the last clear, or
 * null; and the clear. In libMixerRuntime.a. */
const char *mixerRuntimeGetCheckFailure(void);
void mixerRuntimeClearCheckFailure(void);
void mixerRuntimeCheckFailed(const char *message, int64_t a, int64_t b);
#endif

)";

LogicalResult mlir::mixer::emitCHeader(ModuleOp module, raw_ostream &os,
                                       const CHeaderOptions &options) {
  FailureOr<SmallVector<FunctionSignature>> signatures =
      getPublicFunctionSignatures(module);
  if (failed(signatures))
    return failure();
  for (const FunctionSignature &sig : *signatures)
    if (!isCIdentifier(sig.name))
      return module.emitError()
             << "public function @" << sig.name
             << " has a name that is not a C identifier; rename it or make "
                "it private";

  std::string guard = options.guard.empty() ? "MIXER_KERNELS_H" : options.guard;
  os << "/* Generated by mixer-compile";
  if (!options.sourceName.empty())
    os << " from " << options.sourceName;
  os << ". Do not edit. */\n\n";
  os << "#ifndef " << guard << "\n#define " << guard << "\n\n";
  os << "#include <stdint.h>\n\n";
  os << "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n";
  os << kAbiComment;
  if (!options.note.empty()) {
    os << " *\n";
    SmallVector<StringRef> lines;
    StringRef(options.note).rtrim().split(lines, '\n');
    for (StringRef line : lines)
      os << " * " << line << "\n";
  }
  os << " */\n\n";
  os << kRuntimeDeclarations;

  std::set<std::pair<ElementKind, int64_t>> descriptors;
  for (const FunctionSignature &sig : *signatures)
    for (const ArgumentInfo &arg : sig.arguments)
      if (arg.isTensor)
        descriptors.insert({arg.element, arg.getRank()});
  for (auto [kind, rank] : descriptors)
    emitDescriptor(os, kind, rank);

  for (const FunctionSignature &sig : *signatures) {
    SmallVector<std::string> names = getParameterNames(sig, options);
    SmallVector<std::string> descriptions;
    size_t nameWidth = 0, descriptionWidth = 0;
    for (auto [arg, name] : llvm::zip(sig.arguments, names)) {
      descriptions.push_back(describeArgument(arg));
      nameWidth = std::max(nameWidth, name.size());
      descriptionWidth = std::max(descriptionWidth, descriptions.back().size());
    }
    os << "/* @" << sig.name << "\n";
    for (auto [arg, name, desc] : llvm::zip(sig.arguments, names, descriptions))
      os << " *   " << name << std::string(nameWidth - name.size() + 2, ' ')
         << desc << std::string(descriptionWidth - desc.size() + 2, ' ')
         << (arg.isOutput ? "output, written in place" : "input") << "\n";
    os << " */\nvoid _mlir_ciface_" << sig.name << "(";
    if (sig.arguments.empty())
      os << "void";
    llvm::interleave(
        llvm::zip(sig.arguments, names),
        [&](auto pair) {
          auto &[arg, name] = pair;
          if (arg.isTensor)
            os << getDescriptorName(arg.element, arg.getRank()) << " *";
          else
            os << getCTypeName(arg.element) << " ";
          os << name;
        },
        [&] { os << ", "; });
    os << ");\n\n";
  }

  os << "#ifdef __cplusplus\n}\n#endif\n\n#endif /* " << guard << " */\n";
  return success();
}

llvm::StringMap<SmallVector<std::string>>
mlir::mixer::getSourceArgumentNames(ModuleOp module,
                                    const AsmParserState &state) {
  llvm::StringMap<SmallVector<std::string>> names;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isExternal())
      continue;
    const AsmParserState::BlockDefinition *def =
        state.getBlockDef(&func.getBody().front());
    if (!def || def->arguments.size() != func.getNumArguments())
      continue;
    SmallVector<std::string> &list = names[func.getSymName()];
    for (const AsmParserState::SMDefinition &arg : def->arguments) {
      llvm::SMRange range = arg.loc;
      StringRef text(range.Start.getPointer(),
                     range.End.getPointer() - range.Start.getPointer());
      list.push_back(text.ltrim('%').str());
    }
  }
  return names;
}
