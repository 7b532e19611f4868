//===- Passes.h - target-independent passes ---------------------*- C++ -*-===//
//
// The calling convention of compiled functions (results written into caller
// buffers, C interface wrappers) and the fusion of multiplies and adds,
// shared by every target.
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_CODEGEN_COMMON_PASSES_H
#define MIXER_CODEGEN_COMMON_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir::mixer {
// Both sections of the generated file: the pass declarations and their
// registration.
#define GEN_PASS_DECL
#define GEN_PASS_REGISTRATION
#include "mixer/Codegen/Common/Passes.h.inc"
} // namespace mlir::mixer

#endif // MIXER_CODEGEN_COMMON_PASSES_H
