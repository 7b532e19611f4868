//===- Passes.td - target-independent passes ---------------*- tablegen -*-===//

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

def MixerContractFloatOpsPass : Pass<"mixer-contract-float-ops"> {
  let summary = "Let LLVM fuse floating-point multiplies and adds into FMAs";
  let description = [{
    Adds the `contract` fast-math flag to every arith.mulf, arith.addf and
    arith.subf (scalar or vector), so that LLVM fuses a multiply with the
    add or subtract that consumes it into one FMA, rounded once (as C's
    -ffp-contract=fast, and Triton's default). Without the flag LLVM keeps
    them apart: the element-wise maps of the lowerings (the kernel sums'
    squared distances and scaled costs, the scans' decays) then cost a
    multiply and an add each, where their contractions and polynomials
    already use explicit FMAs. Other flags are kept. The CPU pipeline runs
    it (pipeline option `fp-contract`) after mixer-approximate-math, so
    that the polynomials' multiply-adds are fused too; the NVVM pipeline
    on its kernels before they become NVVM (same option), where NVPTX
    would otherwise keep each pair apart as mul.rn and add.rn.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

#endif // MIXER_CODEGEN_COMMON_PASSES_TD
