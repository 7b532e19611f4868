//===- CudaCompile.cpp - a module on tensors to PTX and GPU host code -----===//
//
// The kernels and their launches come from mixer-lower-to-nvvm-pipeline,
// run on the public functions renamed NAME_device. The host-array entry
// points NAME are built here, on memrefs, lowered by the upstream
// gpu-to-llvm conversion and merged into the lowered module: they call
// NAME_device through its C wrapper, the one interface the pipeline
// promises.
//
//===----------------------------------------------------------------------===//

#include "mixer/Execution/CudaCompile.h"

#include "mixer/Execution/Compile.h"
#include "mixer/Execution/Signature.h"
#include "mixer/Pipelines/Pipelines.h"

#include "mlir/Conversion/GPUCommon/GPUCommonPass.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringExtras.h"

#include <optional>

using namespace mlir;
using namespace mlir::mixer;

static constexpr llvm::StringLiteral kCInterfaceAttr = "llvm.emit_c_interface";
static constexpr llvm::StringLiteral kWrapperPrefix = "_mlir_ciface_";
static constexpr llvm::StringLiteral kChips[] = {"sm_80", "sm_90", "sm_90a"};

std::string mlir::mixer::getSupportedCudaChips() {
  return llvm::join(ArrayRef<llvm::StringLiteral>(kChips), ", ");
}

bool mlir::mixer::isSupportedCudaChip(StringRef chip) {
  return llvm::is_contained(kChips, chip);
}

/// The public functions with a body: the entry points of the module.
static SmallVector<func::FuncOp> getPublicFunctions(ModuleOp module) {
  SmallVector<func::FuncOp> functions;
  for (auto func : module.getOps<func::FuncOp>())
    if (func.isPublic() && !func.isExternal())
      functions.push_back(func);
  return functions;
}

void mlir::mixer::addDeviceEntryDeclarations(ModuleOp module) {
  for (func::FuncOp func : getPublicFunctions(module)) {
    OpBuilder builder(func->getContext());
    builder.setInsertionPointAfter(func);
    auto copy = cast<func::FuncOp>(builder.clone(*func));
    copy.setSymName((func.getSymName() + kDeviceEntrySuffix).str());
  }
}

//===----------------------------------------------------------------------===//
// The NVVM pipeline
//===----------------------------------------------------------------------===//

/// Runs mixer-lower-to-nvvm-pipeline for `options.chip`, writing kernels in
/// `format` (fatbin for objects, isa for PTX). Names the pass that failed.
static LogicalResult runNvvmPipeline(ModuleOp module,
                                     const CudaCompileOptions &options,
                                     StringRef format) {
  if (!isSupportedCudaChip(options.chip))
    return module.emitError()
           << "unknown CUDA chip '" << options.chip
           << "' (supported: " << getSupportedCudaChips() << ")";
  NvvmPipelineOptions pipelineOptions;
  std::string text = options.pipelineOptions + " chip=" + options.chip +
                     " format=" + format.str();
  if (failed(pipelineOptions.parseFromString(text, llvm::errs())))
    return module.emitError()
           << "invalid options of mixer-lower-to-nvvm-pipeline: '"
           << options.pipelineOptions << "'";
  PassManager pm(module->getName());
  buildLowerToNvvmPipeline(pm, pipelineOptions);
  std::string pipeline;
  {
    llvm::raw_string_ostream os(pipeline);
    os << "mixer-lower-to-nvvm-pipeline";
    pipelineOptions.print(os);
  }
  if (failed(runPipeline(module, pm, pipeline)))
    return failure();
  // Anything left beside the LLVM dialect and the kernels' binaries would
  // fail the translation with a less helpful message.
  WalkResult leftover = module.walk([&](Operation *op) {
    // gpu.binary and gpu.launch_func stay: the translation to LLVM IR
    // embeds the one and lowers the other to mgpu* calls.
    if (op == module.getOperation() ||
        isa<gpu::BinaryOp, gpu::LaunchFuncOp>(op) ||
        isa<LLVM::LLVMDialect>(op->getDialect()))
      return WalkResult::advance();
    op->emitError() << "operation '" << op->getName()
                    << "' was not lowered to the LLVM dialect by "
                       "mixer-lower-to-nvvm-pipeline";
    return WalkResult::interrupt();
  });
  return failure(leftover.wasInterrupted());
}

/// Renames every public function NAME to NAME_device, with a C wrapper.
static void renameToDeviceEntries(ModuleOp module) {
  for (func::FuncOp func : getPublicFunctions(module)) {
    std::string name = (func.getSymName() + kDeviceEntrySuffix).str();
    StringAttr newName = StringAttr::get(func->getContext(), name);
    (void)SymbolTable::replaceAllSymbolUses(func, newName, module);
    func.setSymName(name);
    func->setAttr(kCInterfaceAttr, UnitAttr::get(func->getContext()));
  }
}

//===----------------------------------------------------------------------===//
// Host-array entry points
//===----------------------------------------------------------------------===//

/// The memref a tensor argument is passed as (dense, row-major).
static Type getBufferType(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return MemRefType::get(tensor.getShape(), tensor.getElementType());
  return type;
}

/// Builds, in `wrappers`, for the function `func` (on tensors):
///   func.func private @NAME_device(memrefs...) {llvm.emit_c_interface}
///   func.func @NAME(memrefs...) {llvm.emit_c_interface}
/// where NAME copies every buffer to the device, calls NAME_device and
/// copies the outputs back. All copies and frees run on one stream.
static void buildHostEntry(OpBuilder &builder, func::FuncOp func,
                           const FunctionSignature &signature) {
  MLIRContext *context = builder.getContext();
  Location loc = func.getLoc();
  SmallVector<Type> types;
  for (Type type : func.getArgumentTypes())
    types.push_back(getBufferType(type));
  auto type = FunctionType::get(context, types, {});
  UnitAttr unit = UnitAttr::get(context);

  auto device = func::FuncOp::create(
      builder, loc, (signature.name + kDeviceEntrySuffix.str()), type);
  device.setPrivate();
  device->setAttr(kCInterfaceAttr, unit);
  auto entry = func::FuncOp::create(builder, loc, signature.name, type);
  entry->setAttr(kCInterfaceAttr, unit);

  OpBuilder::InsertionGuard guard(builder);
  Block *body = entry.addEntryBlock();
  builder.setInsertionPointToStart(body);
  Type tokenType = gpu::AsyncTokenType::get(context);
  Value token = gpu::WaitOp::create(builder, loc, tokenType, ValueRange{})
                    .getAsyncToken();
  SmallVector<Value> deviceArgs;
  SmallVector<Value> deviceBuffers;
  for (BlockArgument arg : body->getArguments()) {
    auto memref = dyn_cast<MemRefType>(arg.getType());
    if (!memref) {
      deviceArgs.push_back(arg);
      continue;
    }
    SmallVector<Value> dynamicSizes;
    for (auto [dim, size] : llvm::enumerate(memref.getShape()))
      if (ShapedType::isDynamic(size))
        dynamicSizes.push_back(
            memref::DimOp::create(builder, loc, arg, dim).getResult());
    auto alloc =
        gpu::AllocOp::create(builder, loc, memref, tokenType, ValueRange{token},
                             dynamicSizes, ValueRange{}, /*hostShared=*/false);
    // Outputs are copied in too: an op may read its `outs` (an
    // accumulating matmul does).
    token = gpu::MemcpyOp::create(builder, loc, tokenType,
                                  ValueRange{alloc.getAsyncToken()},
                                  alloc.getMemref(), arg)
                .getAsyncToken();
    deviceArgs.push_back(alloc.getMemref());
    deviceBuffers.push_back(alloc.getMemref());
  }
  gpu::WaitOp::create(builder, loc, Type(), ValueRange{token});
  func::CallOp::create(builder, loc, device, deviceArgs);
  token = gpu::WaitOp::create(builder, loc, tokenType, ValueRange{})
              .getAsyncToken();
  for (auto [i, arg] : llvm::enumerate(signature.arguments))
    if (arg.isTensor && arg.isOutput)
      token = gpu::MemcpyOp::create(builder, loc, tokenType, ValueRange{token},
                                    body->getArgument(i), deviceArgs[i])
                  .getAsyncToken();
  for (Value buffer : deviceBuffers)
    token = gpu::DeallocOp::create(builder, loc, tokenType, ValueRange{token},
                                   buffer)
                .getAsyncToken();
  gpu::WaitOp::create(builder, loc, Type(), ValueRange{token});
  func::ReturnOp::create(builder, loc);
}

/// The host-array entry points of `functions`, lowered to the LLVM dialect
/// in a module of their own.
static OwningOpRef<ModuleOp>
buildHostEntries(ModuleOp module, ArrayRef<func::FuncOp> functions,
                 ArrayRef<FunctionSignature> signatures) {
  MLIRContext *context = module->getContext();
  // The module on tensors may hold no gpu or memref op yet.
  context->loadDialect<gpu::GPUDialect, memref::MemRefDialect,
                       func::FuncDialect>();
  OpBuilder builder(context);
  OwningOpRef<ModuleOp> wrappers = ModuleOp::create(module.getLoc());
  builder.setInsertionPointToEnd(wrappers->getBody());
  for (func::FuncOp func : functions) {
    const FunctionSignature *signature =
        llvm::find_if(signatures, [&](const FunctionSignature &s) {
          return s.name == func.getSymName();
        });
    if (signature != signatures.end())
      buildHostEntry(builder, func, *signature);
  }
  PassManager pm(wrappers->getContext());
  pm.addPass(createGpuToLLVMConversionPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  if (failed(pm.run(*wrappers))) {
    module.emitError() << "cannot lower the host entry points of the module";
    return nullptr;
  }
  return wrappers;
}

/// Moves the lowered entry points into `module`. The local function that
/// calls NAME_device's C wrapper is renamed (NAME_device is the device
/// entry itself there); declarations `module` already has are dropped.
static LogicalResult mergeHostEntries(ModuleOp module, ModuleOp wrappers,
                                      ArrayRef<func::FuncOp> functions) {
  SymbolTable wrapperSymbols(wrappers);
  for (func::FuncOp func : functions) {
    std::string device = (func.getSymName() + kDeviceEntrySuffix).str();
    auto caller = wrapperSymbols.lookup<LLVM::LLVMFuncOp>(device);
    if (!caller)
      continue;
    if (failed(wrapperSymbols.rename(caller, device + "_call")))
      return module.emitError() << "cannot rename '" << device << "'";
  }
  SymbolTable symbols(module);
  for (Operation &op :
       llvm::make_early_inc_range(wrappers.getBody()->getOperations())) {
    auto function = dyn_cast<LLVM::LLVMFuncOp>(op);
    if (function && symbols.lookup(function.getSymName())) {
      if (!function.isExternal())
        return module.emitError()
               << "the host entry point '" << function.getSymName()
               << "' clashes with a function of the lowered module";
      continue;
    }
    op.moveBefore(module.getBody(), module.getBody()->end());
    if (function)
      symbols.insert(function);
  }
  return success();
}

/// Only the C wrappers are the interface: the functions they wrap become
/// internal (no clash with an application's symbols, and inlined).
static void internalizeWrappedFunctions(ModuleOp module) {
  SymbolTable symbols(module);
  for (auto func : module.getOps<LLVM::LLVMFuncOp>()) {
    StringRef name = func.getSymName();
    if (!name.consume_front(kWrapperPrefix))
      continue;
    auto wrapped = symbols.lookup<LLVM::LLVMFuncOp>(name);
    if (wrapped && !wrapped.isExternal())
      wrapped.setLinkage(LLVM::Linkage::Internal);
  }
}

LogicalResult
mlir::mixer::compileToLLVMForCuda(ModuleOp module,
                                  const CudaCompileOptions &options) {
  if (failed(verify(module)))
    return module.emitError() << "the input module fails to verify";
  FailureOr<SmallVector<FunctionSignature>> signatures =
      getPublicFunctionSignatures(module);
  if (failed(signatures))
    return failure();

  // The entry points are built from the signatures on tensors, before the
  // pipeline rewrites them.
  SmallVector<func::FuncOp> functions = getPublicFunctions(module);
  OwningOpRef<ModuleOp> entrySource = ModuleOp::create(module.getLoc());
  SmallVector<func::FuncOp> sourceFunctions;
  {
    OpBuilder builder(module->getContext());
    builder.setInsertionPointToEnd(entrySource->getBody());
    for (func::FuncOp func : functions) {
      auto declaration = func::FuncOp::create(
          builder, func.getLoc(), func.getSymName(), func.getFunctionType());
      declaration.setPrivate();
      sourceFunctions.push_back(declaration);
    }
  }
  OwningOpRef<ModuleOp> wrappers =
      buildHostEntries(module, sourceFunctions, *signatures);
  if (!wrappers)
    return failure();

  renameToDeviceEntries(module);
  if (failed(runNvvmPipeline(module, options, "fatbin")))
    return failure();
  if (failed(mergeHostEntries(module, *wrappers, sourceFunctions)))
    return failure();
  internalizeWrappedFunctions(module);
  return success();
}

//===----------------------------------------------------------------------===//
// PTX
//===----------------------------------------------------------------------===//

/// Whether `line` is part of a PTX module's header (comments, .version,
/// .target, .address_size), which a merged module has once.
static bool isPtxHeaderLine(StringRef line) {
  StringRef trimmed = line.trim();
  return trimmed.empty() || trimmed.starts_with("//") ||
         trimmed.starts_with(".version") || trimmed.starts_with(".target") ||
         trimmed.starts_with(".address_size");
}

FailureOr<std::string>
mlir::mixer::compileToPtx(ModuleOp module, const CudaCompileOptions &options) {
  if (failed(verify(module)))
    return module.emitError() << "the input module fails to verify", failure();
  if (failed(getPublicFunctionSignatures(module)))
    return failure();
  OwningOpRef<ModuleOp> copy = cast<ModuleOp>(module->clone());
  renameToDeviceEntries(*copy);
  if (failed(runNvvmPipeline(*copy, options, "isa")))
    return failure();

  std::string ptx;
  for (auto binary : copy->getOps<gpu::BinaryOp>()) {
    for (Attribute attr : binary.getObjects()) {
      auto object = dyn_cast<gpu::ObjectAttr>(attr);
      if (!object || object.getFormat() != gpu::CompilationTarget::Assembly)
        continue;
      StringRef text = object.getObject().getValue().rtrim('\0');
      if (ptx.empty()) {
        ptx = text.str();
        continue;
      }
      // Later modules: their body only, after the first one's header.
      SmallVector<StringRef> lines;
      text.split(lines, '\n');
      size_t start = 0;
      while (start < lines.size() && isPtxHeaderLine(lines[start]))
        ++start;
      ptx += "\n// kernel module @" + binary.getSymName().str() + "\n";
      for (StringRef line : ArrayRef<StringRef>(lines).drop_front(start))
        ptx += line.str() + "\n";
    }
  }
  if (ptx.empty())
    return module.emitError() << "the module has no GPU kernel", failure();
  return ptx;
}
