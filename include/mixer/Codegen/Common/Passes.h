//===- Passes.h - target-independent ABI passes -----------------*- C++ -*-===//
//
// The calling convention of compiled functions (results written into caller
// buffers, C interface wrappers), shared by every target.
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_CODEGEN_COMMON_PASSES_H
#define MIXER_CODEGEN_COMMON_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir {
namespace mixer {

#define GEN_PASS_DECL
#include "mixer/Codegen/Common/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "mixer/Codegen/Common/Passes.h.inc"

} // namespace mixer
} // namespace mlir

#endif // MIXER_CODEGEN_COMMON_PASSES_H
