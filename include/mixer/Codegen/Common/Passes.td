//===- Passes.td - target-independent ABI passes -----------*- tablegen -*-===//

#ifndef MIXER_CODEGEN_COMMON_PASSES_TD
#define MIXER_CODEGEN_COMMON_PASSES_TD

include "mlir/Pass/PassBase.td"

def MixerDropReturnedArgumentsPass
    : Pass<"mixer-drop-returned-arguments", "ModuleOp"> {
  let summary = "Drop results that are argument buffers from public functions";
  let description = [{
    After bufferization, a public function whose tensor results were
    computed in place into its `outs` arguments returns those argument
    buffers. This pass removes such results, so the function writes into
    caller-provided buffers and returns nothing: the ABI of mixer-compile's
    objects and of the JIT. The destination of result i is the i-th of the
    trailing `outs` arguments (one per result). A result computed elsewhere
    (an allocation, as elementwise fusion causes when the payload never
    reads its `outs` value, or another argument) is written there: the
    argument replaces the allocation when only its sizes are used, else the
    result is copied into it. A result without such a destination is an
    error, since the caller could not free it.
    Every func.call of a rewritten function follows its new signature: the
    call's result i is the buffer it passes as destination i, or a fresh
    buffer when the callee did not compute result i in place (the caller's
    bufferization then took that argument as only read). Any other use of
    a rewritten function (func.constant) is an error naming the callee and
    the function around the use.
    Upstream's drop-equivalent-buffer-results leaves public functions alone.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def MixerEmitCInterfacePass : Pass<"mixer-emit-c-interface", "ModuleOp"> {
  let summary = "Give every public function a C interface wrapper";
  let description = [{
    Sets `llvm.emit_c_interface` on every public func.func with a body, so
    that the LLVM lowering emits `_mlir_ciface_<name>` taking memref
    descriptors by pointer: the ABI of mixer-compile's objects and of the
    JIT.
  }];
}

#endif // MIXER_CODEGEN_COMMON_PASSES_TD
